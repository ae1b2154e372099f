package dev.interlock.model.export;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Semaphore;
import dev.interlock.model.design.SpawnTree;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Steps;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Writes a design as an equivalent Promela model, to run Spin on the same design as the checker.
 *
 * <p>One proctype per role, run once per thread, and one per task spawn site, run once per worker and job frame (it
 * waits, at an end label, until its job spawns it). Every model transition is one {@code d_step}; violations are
 * assertions naming the violation kind, DEADLOCK also Spin's invalid end state. Sizes are counted in the unit of
 * {@link Units}. See docs/promela.md.
 */
public final class PromelaExport {
  /** Spin runs at most 255 processes, init included. */
  static final int MAX_THREADS = 254;

  private final Design design;
  private final Units units;
  private final List<RoleShape> shapes = new ArrayList<>();
  private final int threads;
  private final PoolCode pool;

  private PromelaExport(Design design) {
    this.design = design;
    this.units = Units.of(design);
    int t = 0;
    for (int r = 0; r < design.roles().size(); r++) {
      RoleShape s = new RoleShape(design, r, t);
      shapes.add(s);
      t += s.threads();
    }
    this.threads = t;
    if (threads > MAX_THREADS) {
      throw new ExportException("design " + design.name() + " has " + threads + " threads (task threads included);"
          + " Spin runs at most " + MAX_THREADS);
    }
    boolean async = false;
    for (var body : bodies()) {
      for (var s : Steps.flatten(body)) {
        async |= s instanceof Alloc a && a.async();
      }
    }
    this.pool = new PoolCode(design, units, async, threads);
  }

  private List<List<dev.interlock.model.step.Step>> bodies() {
    List<List<dev.interlock.model.step.Step>> out = new ArrayList<>();
    design.roles().forEach(r -> out.add(r.body()));
    design.tasks().forEach(x -> out.add(x.body()));
    return out;
  }

  /**
   * The Promela model of design d.
   *
   * @throws ExportException when Promela as written here cannot express it (the message names why)
   */
  public static String promela(Design d) {
    return new PromelaExport(d).write();
  }

  /** The names of the always-0 variables whose assertions report each violation kind (all kinds but DEADLOCK's too). */
  public static List<String> kindNames() {
    return Arrays.stream(ViolationKind.values()).map(Enum::name).toList();
  }

  private String write() {
    StringBuilder o = new StringBuilder();
    o.append("/* design ").append(design.name()).append(", exported by `interlock export --promela`; see docs/promela.md.\n")
        .append(" * Threads: ").append(threadList()).append(".\n")
        .append(" * Sizes in units of ").append(units.describe())
        .append(": the gcd of vram, every alloc and device buffer size and the pool threshold.\n")
        .append(" * Violations: `assert(KIND)` on a variable that is always 0 (Spin prints the kind); DEADLOCK also\n")
        .append(" * as Spin's invalid end state. Verify with: spin -a FILE && gcc -DSAFETY -o pan pan.c && ./pan -m1000000 */\n\n");
    o.append("#define VRAM ").append(units.of(design.vram())).append("  /* ").append(dev.interlock.model.design.Sizes.format(design.vram())).append(" */\n");
    o.append("#define T ").append(threads).append("  /* threads (streams) */\n");
    o.append("hidden byte ").append(String.join(", ", kindNames())).append(";\n");
    long resident = 0;
    for (ResidentBuffer b : design.buffers()) {
      resident += units.of(b.bytes());
    }
    o.append("int live = ").append(resident).append(";  /* units of live buffers (device buffers: ").append(resident).append(") */\n");
    o.append(pool.declarations());
    if (!design.mutexes().isEmpty()) {
      o.append("byte mutex[").append(design.mutexes().size()).append("];  /* holder's thread + 1, or 0: ")
          .append(String.join(", ", design.mutexes())).append(" */\n");
    }
    if (!design.semaphores().isEmpty()) {
      o.append("int avail[").append(design.semaphores().size()).append("];  /* permits available: ")
          .append(design.semaphores().stream().map(Semaphore::name).collect(Collectors.joining(", "))).append(" */\n");
      o.append("int held[").append(design.semaphores().size()).append("*T];  /* permits held, per semaphore and thread */\n");
    }
    o.append("byte kernels;  /* threads inside a kernel (sync waits for none) */\n");
    for (RoleShape s : shapes) {
      o.append("/* role ").append(s.role.name()).append(": ").append(s.workers).append(" workers, ").append(s.jobs)
          .append(" jobs, ").append(s.frames).append(" frames; job buffers ").append(s.jobBuffers).append(", kept ")
          .append(s.keptBuffers).append(", events ").append(s.events).append(", tasks ").append(s.tasks).append(" */\n");
      int wf = s.workers * s.frames;
      if (s.nodes > 0) {
        o.append("byte ").append(s.name()).append("_job[").append(s.workers).append("];\n");
        o.append("byte ").append(s.name()).append("_st[").append(wf * s.nodes).append("];\n");
        o.append("byte ").append(s.name()).append("_last[").append(wf * s.tasks.size()).append("];\n");
      }
      if (!s.jobBuffers.isEmpty()) {
        o.append("byte ").append(s.name()).append("_buf[").append(wf * s.jobBuffers.size()).append("];\n");
      }
      if (!s.keptBuffers.isEmpty()) {
        o.append("byte ").append(s.name()).append("_kept[").append(s.workers * s.keptBuffers.size()).append("];\n");
      }
      if (!s.events.isEmpty()) {
        o.append("bit ").append(s.name()).append("_ev[").append(wf * s.events.size()).append("];\n");
      }
    }
    o.append("\n").append(pool.inlines()).append("\n");
    for (RoleShape s : shapes) {
      roleProc(o, s);
      for (SpawnTree.Node n : s.tree.nodes()) {
        taskProc(o, s, n);
      }
    }
    init(o);
    return o.toString();
  }

  private String threadList() {
    List<String> parts = new ArrayList<>();
    for (RoleShape s : shapes) {
      parts.add(s.role.name() + " x" + s.workers + " jobs " + s.jobs
          + (s.nodes == 0 ? "" : " (" + s.nodes + " task threads per job)"));
    }
    return String.join(", ", parts);
  }

  private void roleProc(StringBuilder o, RoleShape s) {
    o.append("/* role ").append(s.role.name()).append(": worker w, thread t; its jobs unrolled */\n");
    o.append("proctype ").append(s.name()).append("(byte w; byte t) {\n");
    for (int j = 0; j < s.jobs; j++) {
      String frame = String.valueOf(s.frames == 1 ? 0 : j);
      o.append("  /* job ").append(j + 1).append(" */\n");
      String end = roleJobEnd(s, j, frame);
      new StepWriter(design, s, pool, units, frame, -1, o).body(s.role.body(), end);
    }
    o.append("}\n\n");
  }

  /** The model's advance at the end of a role thread's job: next job, close the frame unless its tasks run. */
  private String roleJobEnd(RoleShape s, int j, String frame) {
    StringBuilder e = new StringBuilder();
    if (s.nodes > 0) {
      e.append(s.job()).append(" = ").append(j + 1).append("; ");
    }
    String close = closeFrame(s, frame) + (j + 1 == s.jobs ? " " + releaseKeptWhenNoTasks(s, "t") : "");
    if (s.nodes == 0) {
      e.append(close);
    } else {
      e.append("if :: !(").append(tasksRunning(s, frame)).append(") -> ").append(close).append(" :: else fi;");
    }
    return e.toString();
  }

  /** The model's advance at the end of a task thread: done; the last of a job whose role thread moved on closes it. */
  private String taskEnd(RoleShape s, SpawnTree.Node n) {
    String roleThread = "(t - 1 - f*" + s.nodes + " - " + n.id() + ")";
    return s.status("f", n.id()) + " = 2; if :: " + s.job() + " != f && !(" + tasksRunning(s, "f") + ") -> "
        + closeFrame(s, "f") + " " + releaseKeptWhenNoTasks(s, roleThread) + " :: else fi;";
  }

  private String closeFrame(RoleShape s, String frame) {
    StringBuilder c = new StringBuilder();
    if (!s.jobBuffers.isEmpty()) {
      List<String> live = new ArrayList<>();
      for (int b = 0; b < s.jobBuffers.size(); b++) {
        if (s.jobMissing[b] != 0) {
          // a missing buffer holds no memory: nothing leaks
          c.append("if :: ").append(s.buf(frame, b)).append(" == ").append(s.jobMissing[b]).append(" -> ")
              .append(s.buf(frame, b)).append(" = 0 :: else fi; ");
        }
        live.add(s.buf(frame, b) + " != 0");
      }
      c.append("if :: ").append(String.join(" || ", live)).append(" -> assert(LEAK) :: else fi;");
    }
    for (int e = 0; e < s.events.size(); e++) {
      c.append(" ").append(s.event(frame, e)).append(" = 0;");
    }
    for (int k = 0; k < s.tasks.size(); k++) {
      c.append(" ").append(s.last(frame, k)).append(" = 0;");
    }
    for (int n = 0; n < s.nodes; n++) {
      c.append(" ").append(s.status(frame, n)).append(" = 0;");
    }
    return c.length() == 0 ? "skip;" : c.toString().trim();
  }

  /** Frees the worker's kept buffers on the role thread's stream once it ran all jobs and no task thread runs. */
  private String releaseKeptWhenNoTasks(RoleShape s, String roleThread) {
    if (s.keptBuffers.isEmpty()) {
      return "";
    }
    StringBuilder r = new StringBuilder();
    for (int k = 0; k < s.keptBuffers.size(); k++) {
      String f = s.kept(k);
      r.append("if :: ").append(f).append(" == 0 -> skip");
      if (s.keptMissing[k] != 0) {
        r.append(" :: ").append(f).append(" == ").append(s.keptMissing[k]).append(" -> ").append(f).append(" = 0");
      }
      List<Alloc> allocs = s.keptAllocs.get(k);
      for (int v = 1; v <= allocs.size(); v++) {
        Alloc a = allocs.get(v - 1);
        r.append(" :: ").append(f).append(" == ").append(v).append(" -> ")
            .append(pool.free(units.of(a.bytes()), a.async(), roleThread)).append(" ").append(f).append(" = 0");
      }
      r.append(" fi; ");
    }
    if (s.nodes == 0) {
      return r.toString().trim();
    }
    List<String> running = new ArrayList<>();
    for (int f = 0; f < s.frames; f++) {
      running.add(tasksRunning(s, String.valueOf(f)));
    }
    return "if :: " + s.job() + " == " + s.jobs + " && !(" + String.join(" || ", running) + ") -> " + r.toString().trim()
        + " :: else fi;";
  }

  private String tasksRunning(RoleShape s, String frame) {
    List<String> running = new ArrayList<>();
    for (int n = 0; n < s.nodes; n++) {
      running.add(s.status(frame, n) + " == 1");
    }
    return running.isEmpty() ? "false" : String.join(" || ", running);
  }

  private void taskProc(StringBuilder o, RoleShape s, SpawnTree.Node n) {
    o.append("/* task ").append(n.task()).append(" as spawned at node ").append(n.id()).append(" of role ")
        .append(s.role.name()).append(": worker w, thread t, job frame f */\n");
    o.append("proctype ").append(s.name()).append("_n").append(n.id()).append("(byte w; byte t; byte f) {\n");
    new StepWriter(design, s, pool, units, "f", n.id(), o)
        .startingWhen(s.status("f", n.id()) + " == 1", "end_unspawned")
        .body(design.task(n.task()).orElseThrow().body(), taskEnd(s, n));
    o.append("}\n\n");
  }

  private void init(StringBuilder o) {
    o.append("init {\n  atomic {\n");
    for (int i = 0; i < design.semaphores().size(); i++) {
      o.append("    avail[").append(i).append("] = ").append(design.semaphores().get(i).permits()).append(";\n");
    }
    for (RoleShape s : shapes) {
      for (int w = 0; w < s.workers; w++) {
        int t = s.firstThread + w * s.threadsPerWorker();
        o.append("    run ").append(s.name()).append("(").append(w).append(", ").append(t).append(");\n");
        for (int f = 0; f < s.frames; f++) {
          for (int n = 0; n < s.nodes; n++) {
            o.append("    run ").append(s.name()).append("_n").append(n).append("(").append(w).append(", ")
                .append(t + 1 + f * s.nodes + n).append(", ").append(f).append(");\n");
          }
        }
      }
    }
    o.append("  }\n}\n");
  }
}
