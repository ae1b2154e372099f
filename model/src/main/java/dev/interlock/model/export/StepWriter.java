package dev.interlock.model.export;

import dev.interlock.model.design.Design;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one body's steps as Promela: each of the model's transitions is one {@code d_step} whose first statement is
 * the condition under which the model lets the thread move, so Spin interleaves exactly where the model does.
 *
 * <p>The last transition of a body also ends the thread's part of the job, as the model's {@code advance} does: that
 * tail (leak check, releasing kept buffers) comes from the caller. A violation is {@code assert(KIND)} on an always-0
 * variable named after the kind, so Spin's message names it.
 */
final class StepWriter implements Step.Visitor<Void> {
  private final Design design;
  private final RoleShape shape;
  private final PoolCode pool;
  private final Units units;
  private final String frame;
  private final int owner;
  private final StringBuilder out;
  private String indent = "  ";
  private int site;
  private String tail = "";
  /** A condition the next transition also needs (a task thread's: it was spawned); cleared once written. */
  private String startGuard;
  private String startLabel;

  /**
   * A writer for the body of node {@code owner} (-1: the role thread) of {@code shape}, in frame {@code frame} (a
   * constant or the process parameter {@code f}); the thread's number is {@code t}, its worker's {@code w}.
   */
  StepWriter(Design design, RoleShape shape, PoolCode pool, Units units, String frame, int owner, StringBuilder out) {
    this.design = design;
    this.shape = shape;
    this.pool = pool;
    this.units = units;
    this.frame = frame;
    this.owner = owner;
    this.out = out;
  }

  /** Makes the next transition also wait for {@code guard}, with {@code label} (an end label) before it. */
  StepWriter startingWhen(String guard, String label) {
    this.startGuard = guard;
    this.startLabel = label;
    return this;
  }

  /** Writes body, its last transition followed by {@code end} (the end of the thread's part of the job). */
  void body(List<Step> body, String end) {
    site = 0;
    steps(body, end);
  }

  private void steps(List<Step> body, String end) {
    String outer = tail;
    for (int i = 0; i < body.size(); i++) {
      tail = i == body.size() - 1 ? end : "";
      body.get(i).accept(this);
    }
    tail = outer;
  }

  /** One transition: when {@code guard} holds, {@code action}, then the body's tail if this step ends it. */
  private void transition(String comment, String guard, String action) {
    String g = guard;
    if (startGuard != null) {
      g = guard.equals("true") ? startGuard : startGuard + " && " + guard;
    }
    String label = startLabel == null ? "" : startLabel + ": ";
    startGuard = null;
    startLabel = null;
    out.append(indent).append(label).append("d_step { /* ").append(comment).append(" */ ");
    if (!g.equals("true")) {
      out.append(g).append(" -> ");
    }
    String body = (tail.isEmpty() ? action : action + " " + tail).trim();
    // a closing skip keeps the target of a loop's break inside the d_step (Spin refuses a jump out of one)
    out.append(body).append(body.endsWith(";") ? " skip" : "; skip").append(" };\n");
  }

  private String thread() {
    return "t";
  }

  private String jobBuf(String name) {
    return shape.buf(frame, shape.jobBuffers.indexOf(name));
  }

  @Override
  public Void lock(Lock s) {
    site++;
    String m = "mutex[" + design.mutexIndex(s.mutex()) + "]";
    transition(s.text(), "(" + m + " == 0 || " + m + " == t + 1)",
        "if :: " + m + " == t + 1 -> assert(DEADLOCK) :: else -> " + m + " = t + 1 fi;");
    return null;
  }

  @Override
  public Void unlock(Unlock s) {
    site++;
    String m = "mutex[" + design.mutexIndex(s.mutex()) + "]";
    transition(s.text(), "true", "if :: " + m + " != t + 1 -> assert(UNLOCK_NOT_HELD) :: else -> " + m + " = 0 fi;");
    return null;
  }

  @Override
  public Void acquire(Acquire s) {
    site++;
    int i = design.semaphoreIndex(s.semaphore());
    transition(s.text(), "avail[" + i + "] >= " + s.permits(), "avail[" + i + "] = avail[" + i + "] - " + s.permits()
        + "; " + held(i) + " = " + held(i) + " + " + s.permits() + ";");
    return null;
  }

  @Override
  public Void release(Release s) {
    site++;
    int i = design.semaphoreIndex(s.semaphore());
    transition(s.text(), "true", "if :: " + held(i) + " < " + s.permits() + " -> assert(RELEASE_EXCESS) :: else -> "
        + held(i) + " = " + held(i) + " - " + s.permits() + "; avail[" + i + "] = avail[" + i + "] + " + s.permits()
        + " fi;");
    return null;
  }

  private String held(int sem) {
    return "held[" + sem + "*T + t]";
  }

  @Override
  public Void alloc(Alloc s) {
    site++;
    long u = units.of(s.bytes());
    if (s.keep()) {
      int k = shape.keptBuffers.indexOf(s.buffer());
      String f = shape.kept(k);
      int v = shape.keptAllocs.get(k).indexOf(s) + 1;
      transition(s.text(), "true", "if :: " + f + " != 0 -> skip :: else -> "
          + pool.alloc(u, s.async(), thread(), f + " = " + v + ";") + " fi;");
      return null;
    }
    int b = shape.jobBuffers.indexOf(s.buffer());
    String f = shape.buf(frame, b);
    int v = shape.jobAllocs.get(b).indexOf(s) + 1;
    transition(s.text(), "true", "if :: " + f + " != 0 -> assert(LEAK) :: else -> "
        + pool.alloc(u, s.async(), thread(), f + " = " + v + ";") + " fi;");
    return null;
  }

  @Override
  public Void free(Free s) {
    site++;
    boolean kept = shape.keptBuffers.contains(s.buffer());
    int b = (kept ? shape.keptBuffers : shape.jobBuffers).indexOf(s.buffer());
    String f = kept ? shape.kept(b) : shape.buf(frame, b);
    List<Alloc> allocs = (kept ? shape.keptAllocs : shape.jobAllocs).get(b);
    StringBuilder a = new StringBuilder("if :: " + f + " == 0 -> assert(BAD_FREE)");
    for (int v = 1; v <= allocs.size(); v++) {
      Alloc x = allocs.get(v - 1);
      a.append(" :: ").append(f).append(" == ").append(v).append(" -> ")
          .append(pool.free(units.of(x.bytes()), x.async(), thread())).append(" ").append(f).append(" = 0");
    }
    transition(s.text(), "true", a.append(" fi;").toString());
    return null;
  }

  @Override
  public Void trim(Trim s) {
    site++;
    transition(s.text(), "true", pool.trim());
    return null;
  }

  @Override
  public Void sync(Sync s) {
    site++;
    transition(s.text(), "kernels == 0", pool.synchronizeDevice());
    return null;
  }

  @Override
  public Void syncStream(SyncStream s) {
    site++;
    transition(s.text(), "true", pool.synchronizeStream(thread()));
    return null;
  }

  @Override
  public Void kernel(Kernel s) {
    site++;
    List<String> dead = new ArrayList<>();
    for (String b : s.uses()) {
      if (design.buffers().stream().anyMatch(r -> r.name().equals(b))) {
        continue;
      }
      boolean kept = shape.keptBuffers.contains(b);
      dead.add((kept ? shape.kept(shape.keptBuffers.indexOf(b)) : jobBuf(b)) + " == 0");
    }
    String check = dead.isEmpty() ? "" : "if :: " + String.join(" || ", dead) + " -> assert(USE_AFTER_FREE) :: else fi; ";
    String after = tail;
    tail = "";
    transition("begin " + s.text(), "true", check + "kernels++;");
    tail = after;
    transition("end " + s.name(), "true", "kernels--; " + pool.synchronizeStream(thread()));
    return null;
  }

  @Override
  public Void cpu(Cpu s) {
    site++;
    String after = tail;
    tail = "";
    transition("begin " + s.text(), "true", "skip;");
    tail = after;
    transition("end " + s.name(), "true", "skip;");
    return null;
  }

  @Override
  public Void ifFree(IfFree s) {
    long u = units.ceil(s.bytes());
    String holds = pool.free() + (s.atLeast() ? " >= " : " < ") + u;
    String fails = pool.free() + (s.atLeast() ? " < " : " >= ") + u;
    return branches(s.text(), holds, s.then(), fails, s.otherwise());
  }

  @Override
  public Void choose(dev.interlock.model.step.Choose s) {
    return branches(s.text(), "true", s.first(), "true", s.second()); // both enabled: Spin explores both paths
  }

  /** A two-way Promela {@code if}: the step's one transition, guarded per path, then each path's steps. */
  private Void branches(String text, String holds, List<Step> then, String fails, List<Step> otherwise) {
    site++;
    String guard = startGuard;
    String label = startLabel;
    String after = tail;
    out.append(indent).append(label == null ? "" : label + ": ").append("if /* ").append(text).append(" */\n");
    String outer = indent;
    indent = outer + "   ";
    for (int branch = 0; branch < 2; branch++) {
      List<Step> steps = branch == 0 ? then : otherwise;
      out.append(outer).append(":: ");
      startGuard = guard;
      startLabel = null;
      tail = steps.isEmpty() ? after : "";
      String saved = indent;
      indent = "";
      transition(branch == 0 ? "then" : "else", branch == 0 ? holds : fails, "skip;");
      indent = saved;
      steps(steps, after);
    }
    indent = outer;
    tail = after;
    out.append(indent).append("fi;\n");
    return null;
  }

  @Override
  public Void spawn(Spawn s) {
    int node = shape.tree.child(owner, site);
    site++;
    int task = shape.tasks.indexOf(s.task());
    int ordinal = shape.tree.nodes().get(node).ordinal();
    transition(s.text(), "true", shape.status(frame, node) + " = 1; " + shape.last(frame, task) + " = " + ordinal + ";");
    return null;
  }

  @Override
  public Void join(Join s) {
    site++;
    int task = shape.tasks.indexOf(s.task());
    if (task < 0) {
      transition(s.text() + " (this role never spawns it)", "true", "skip;");
      return null;
    }
    String last = shape.last(frame, task);
    StringBuilder g = new StringBuilder("(" + last + " == 0");
    int[] nodes = shape.taskNodes(task);
    for (int i = 0; i < nodes.length; i++) {
      g.append(" || (").append(last).append(" == ").append(i + 1).append(" && ")
          .append(shape.status(frame, nodes[i])).append(" != 1)");
    }
    transition(s.text(), g.append(")").toString(), "skip;");
    return null;
  }

  @Override
  public Void signal(Signal s) {
    site++;
    transition(s.text(), "true", shape.event(frame, shape.events.indexOf(s.event())) + " = 1;");
    return null;
  }

  @Override
  public Void await(Wait s) {
    site++;
    transition(s.text(), shape.event(frame, shape.events.indexOf(s.event())) + " == 1", "skip;");
    return null;
  }
}
