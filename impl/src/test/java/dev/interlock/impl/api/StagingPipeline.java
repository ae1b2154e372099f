package dev.interlock.impl.api;

import java.util.List;

/**
 * A pipeline written as a user would write one: only api types, the JDK and step text from its design
 * ({@link ApiPipelineTest#DESIGN}): stage under a semaphore, compute under a mutex, synchronize the device.
 */
final class StagingPipeline implements Pipeline {
  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Semaphore units = w.resources().semaphore("units");
    Mutex m = w.resources().mutex("m");

    probe.interval("cpu prepare", () -> {});
    probe.step("acquire units 3", () -> units.acquire(3));
    try {
      DeviceBuffer in = probe.step("alloc in 2GiB async", () -> device.allocate(w.name(), "in", 2L << 30, true));
      try {
        probe.step("lock m", m::lock);
        try {
          DeviceBuffer out = probe.step("alloc out 1GiB", () -> device.allocate(w.name(), "out", 1L << 30, false));
          try {
            KernelRun k = probe.begin("kernel k uses in out", () -> device.launch(w.name(), "k", List.of(in, out), () -> {}));
            try {
              probe.end("kernel k uses in out", k::await);
            } finally {
              if (probe.silent()) {
                k.await();
              }
            }
          } finally {
            probe.step("free out", () -> device.free(out));
          }
        } finally {
          probe.step("unlock m", m::unlock);
        }
      } finally {
        probe.step("free in", () -> device.free(in));
      }
    } finally {
      probe.step("release units 3", () -> units.release(3));
    }
    probe.step("sync", w.resources()::synchronizeDevice);
    probe.interval("cpu finish", () -> {});
    return job.id();
  }
}
