package dev.interlock.junit.api;

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
 * A user's pipeline for {@link #SAFE} (and, with its lock taken after the allocation, {@link #UNSAFE}), written only
 * against the api, with one deliberate bug per {@link Bug}: what the conformance checks must catch.
 */
final class ConformanceDemoPipeline implements Pipeline {
  /** Safe: the 3GiB buffer lives only under m, so two never meet in 4GiB. */
  static final String SAFE = """
      design demo
      vram 4GiB
      mutex m
      role w x2 jobs 2
        cpu prepare
        lock m
        alloc buf 3GiB
        kernel k uses buf
        free buf
        unlock m
        cpu finish
      """;

  /** Out of memory when both workers allocate before either locks: 3GiB + 3GiB do not fit in 4GiB. */
  static final String UNSAFE = """
      design demo-unsafe
      vram 4GiB
      mutex m
      role w x2 jobs 1
        alloc buf 3GiB
        lock m
        kernel k uses buf
        unlock m
        free buf
      """;

  /** The deliberate bugs. */
  enum Bug {
    NONE,
    /** Allocates before taking the lock the design allocates under. */
    ALLOC_OUTSIDE_LOCK,
    /** Frees its buffer twice. */
    FREES_TWICE,
    /** Unlocks after its last cpu step instead of before. */
    LATE_UNLOCK,
    /** Names a 3GiB allocation but allocates 1GiB. */
    WRONG_SIZE,
    /** Throws in the middle of a job. */
    THROWS
  }

  private final Bug bug;
  private final boolean unsafeOrder;

  ConformanceDemoPipeline(Bug bug) {
    this(bug, false);
  }

  /** With {@code unsafeOrder}, the steps of {@link #UNSAFE}. */
  ConformanceDemoPipeline(Bug bug, boolean unsafeOrder) {
    this.bug = bug;
    this.unsafeOrder = unsafeOrder;
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Probe probe = w.probe();
    Device device = w.device();
    Mutex m = w.resources().mutex("m");
    if (unsafeOrder) {
      DeviceBuffer buf = alloc(w, probe, device);
      probe.step("lock m", m::lock);
      kernel(w, probe, device, buf);
      probe.step("unlock m", m::unlock);
      probe.step("free buf", () -> device.free(buf));
      return null;
    }
    if (!unsafeOrder) {
      probe.interval("cpu prepare", () -> {});
    }
    DeviceBuffer early = bug == Bug.ALLOC_OUTSIDE_LOCK ? alloc(w, probe, device) : null;
    probe.step("lock m", m::lock);
    try {
      DeviceBuffer buf = early != null ? early : alloc(w, probe, device);
      if (bug == Bug.THROWS) {
        throw new IllegalStateException("the pipeline's own bug");
      }
      try {
        kernel(w, probe, device, buf);
      } finally {
        probe.step("free buf", () -> device.free(buf));
        if (bug == Bug.FREES_TWICE) {
          probe.step("free buf", () -> device.free(buf));
        }
      }
    } finally {
      if (bug != Bug.LATE_UNLOCK) {
        probe.step("unlock m", m::unlock);
      }
    }
    probe.interval("cpu finish", () -> {});
    if (bug == Bug.LATE_UNLOCK) {
      probe.step("unlock m", m::unlock);
    }
    return null;
  }

  private DeviceBuffer alloc(Worker w, Probe probe, Device device) {
    long bytes = bug == Bug.WRONG_SIZE ? 1L << 30 : 3L << 30;
    return probe.step("alloc buf 3GiB", () -> device.allocate(w.name(), "buf", bytes, false));
  }

  private static void kernel(Worker w, Probe probe, Device device, DeviceBuffer buf) {
    KernelRun k = probe.begin("kernel k uses buf", () -> device.launch(w.name(), "k", List.of(buf), () -> {}));
    try {
      probe.end("kernel k uses buf", k::await);
    } finally {
      if (probe.silent()) {
        k.await();
      }
    }
  }
}
