package dev.interlock.impl.lincheck;

import dev.interlock.impl.engine.SharedEngine;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.DeviceMemory;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ThreadView;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Step;
import java.util.Arrays;

/**
 * The sequential specification of {@link SharedEngine#runJob(String)}, computed by the model: one
 * worker per role, stepped through one job (its body and the tasks it spawns) per call, answering
 * in the engine's words ("ok", or "OOM at alloc staged 12GiB").
 *
 * <p>An allocation failure the design ignores ({@code on oom ignore}) is the model's violation SWALLOWED_OOM, but the
 * job goes on from the state the model moved to, as the engine's does; its answer is {@code "SWALLOWED_OOM at STEP"},
 * the job's first step that went wrong (that allocation, or a kernel that ran without a missing buffer,
 * {@link Model#missingUses}), unless a real failure comes later in the job.
 *
 * <p>A job that fails leaves the state as the engine does after a failed job ({@link Model#restart}):
 * the thread starts its next job holding no mutex, permit or buffer; its live buffers are freed
 * (async ones into the pool's cache). Subclasses have a public no-argument constructor, as Lincheck
 * wants, and the operations of their test class.
 *
 * <p>In impl's main sources (not its tests) so that interlock-junit's {@code PipelineConformance.linearizable()}
 * uses the same specification as this repository's own Lincheck tests.
 */
public abstract class ModelJobSpec {
  /**
   * Jobs per model thread: far more than one scenario runs; the count starts again from 0 after a
   * failure and after a job that ends holding nothing, so only jobs that end holding a mutex or
   * permits count towards it.
   */
  static final int JOBS = 256;

  private final Model model;
  private long[] state;
  private long[] scratch;

  /** The specification of {@code design}: one thread per role, each in its initial state. */
  protected ModelJobSpec(Design design) {
    Design one = design;
    for (Role r : design.roles()) {
      one = one.withThreads(r.name(), 1).withJobs(r.name(), JOBS);
    }
    model = new Model(one);
    state = model.initial();
    scratch = new long[state.length];
  }

  /**
   * Runs one job of {@code role} on the model, its tasks included, as {@link SharedEngine#run} returns only once they
   * have ended: "ok" or "KIND at step". Within the job, the first of its threads (the role thread, then the tasks in
   * the model's order) that can move moves; the role thread, once it has ended the job, waits for its tasks.
   */
  public String runJob(String role) {
    int t = thread(role);
    int job = model.view(state, t).job();
    if (job >= JOBS - 1) {
      throw new IllegalStateException("the specification ran out of jobs: raise ModelJobSpec.JOBS above " + JOBS);
    }
    String wrong = null; // the job's first step that went wrong for want of a buffer (an ignored failure)
    while (!closed(state, t, job)) {
      int moved = -1;
      for (int u = t; u < model.threads() && model.workerOf(u) == model.workerOf(t); u++) {
        if (u == t && model.view(state, t).job() > job) {
          continue; // the role thread has ended this job: its next one is another call
        }
        String at = model.nextStep(state, u).map(Step::text).orElse(null);
        boolean without = !model.missingUses(state, u).isEmpty();
        int code = model.step(state, u, scratch);
        if (code == Model.BLOCKED || code == Model.FINISHED) {
          continue;
        }
        if (wrong == null && (without || Model.violation(code) == ViolationKind.SWALLOWED_OOM)) {
          wrong = at;
        }
        if (code != Model.MOVED && Model.violation(code) != ViolationKind.SWALLOWED_OOM) {
          ViolationKind kind = Model.violation(code);
          // scratch is the device as the failure left it (an OOM still moves the pool's cache); a leak found when
          // the job closes is reported at its end, as the engine does
          String step = kind == ViolationKind.LEAK && closed(scratch, t, job) ? SharedEngine.END_OF_JOB
              : model.nextStep(state, u).orElseThrow().text();
          state = model.restart(scratch, t);
          return kind + " at " + step;
        }
        long[] done = state;
        state = scratch;
        scratch = done;
        moved = u;
        break;
      }
      if (moved < 0) {
        throw new IllegalStateException(model.threadName(t) + " alone cannot finish a job: " + model.explainDeadlock(state));
      }
    }
    ThreadView v = model.view(state, t);
    if (v.mutexes().isEmpty() && v.permits().isEmpty() && v.buffers().isEmpty()) {
      // holding nothing, the next job starts as the first did: forget the count, so states merge
      state = model.restart(state, t);
    }
    return wrong == null ? "ok" : ViolationKind.SWALLOWED_OOM + " at " + wrong;
  }

  /** Whether role thread t's job {@code job} has closed in state s: t has ended it and no task of its worker runs. */
  private boolean closed(long[] s, int t, int job) {
    if (model.view(s, t).job() <= job) {
      return false;
    }
    for (int u = t + 1; u < model.threads() && model.workerOf(u) == model.workerOf(t); u++) {
      if (model.nextStep(s, u).isPresent()) {
        return false;
      }
    }
    return true;
  }

  /** The device memory of the model state: live and cached bytes. */
  DeviceMemory memory() {
    return model.memory(state);
  }

  private int thread(String role) {
    for (int r = 0; r < model.design().roles().size(); r++) {
      if (model.design().roles().get(r).name().equals(role)) {
        return model.roleStart(r);
      }
    }
    throw new IllegalArgumentException("no role " + role);
  }

  // Equal states answer every future call alike: lets Lincheck's verifier merge them.
  @Override
  public boolean equals(Object o) {
    return o != null && o.getClass() == getClass() && Arrays.equals(state, ((ModelJobSpec) o).state);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(state);
  }
}
