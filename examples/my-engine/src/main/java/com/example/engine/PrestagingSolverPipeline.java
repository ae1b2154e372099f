package com.example.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.Mutex;
import dev.interlock.impl.api.Probe;
import dev.interlock.impl.api.Worker;

/**
 * The deliberate bug: the solver with its input staged before the gpu lock is taken (src/main/designs/prestage.design).
 * It looks faster, and on a card with room for it, it is; on the 12 GiB card two staged inputs and a scratch do not
 * fit. The tests show that Interlock catches it twice: it does not conform to solver.design, and the out-of-memory
 * the checker finds in prestage.design happens on this code too.
 */
public class PrestagingSolverPipeline extends SolverPipeline {
  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Mutex gpu = w.resources().mutex("gpu");

    probe.interval("cpu prepare", () -> { });
    DeviceBuffer input = stage(w); // outside the lock: the bug
    boolean locked = false;
    try {
      probe.step("lock gpu", gpu::lock);
      locked = true;
      solve(w, input);
    } finally {
      probe.step("free input", () -> device.free(input));
      if (locked) {
        probe.step("unlock gpu", gpu::unlock);
      }
    }
    probe.interval("cpu finish", () -> { });
    return null;
  }
}
