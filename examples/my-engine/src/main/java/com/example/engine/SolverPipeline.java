package com.example.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.Mutex;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Worker;
import java.util.List;

/**
 * One job of the solver engine, as src/main/designs/solver.design describes it: everything on the device happens
 * under the gpu lock, and the CPU finish runs after the lock is released.
 *
 * <p>Each real operation runs inside {@code probe.step(...)} with the design step it performs, in the design
 * language: that is how Interlock sees what the code does and checks it against the design.
 */
public class SolverPipeline implements Pipeline {
  static final long INPUT_BYTES = 6L << 30;
  static final long SCRATCH_BYTES = 2L << 30;

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Mutex gpu = w.resources().mutex("gpu");

    probe.interval("cpu prepare", () -> { });
    probe.step("lock gpu", gpu::lock);
    try {
      DeviceBuffer input = stage(w);
      try {
        solve(w, input);
      } finally {
        probe.step("free input", () -> device.free(input));
      }
    } finally {
      probe.step("unlock gpu", gpu::unlock);
    }
    probe.interval("cpu finish", () -> { });
    return null;
  }

  /** Allocates and fills the job's input on the device. */
  DeviceBuffer stage(Worker w) {
    return w.probe().step("alloc input 6GiB", () -> w.device().allocate(w.name(), "input", INPUT_BYTES, false));
  }

  /** Runs the solve kernel with a scratch buffer of its own, and frees the scratch. */
  final void solve(Worker w, DeviceBuffer input) {
    Probe probe = w.probe();
    Device device = w.device();
    DeviceBuffer scratch = probe.step("alloc scratch 2GiB", () -> device.allocate(w.name(), "scratch", SCRATCH_BYTES, false));
    try {
      KernelRun k = probe.begin("kernel solve uses input scratch",
          () -> device.launch(w.name(), "solve", List.of(input, scratch), () -> { }));
      try {
        probe.end("kernel solve uses input scratch", k::await);
      } finally {
        if (probe.silent()) {
          k.await(); // the run was stopped before the end step: never leave a kernel running
        }
      }
    } finally {
      probe.step("free scratch", () -> device.free(scratch));
    }
  }
}
