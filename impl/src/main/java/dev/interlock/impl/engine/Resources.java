package dev.interlock.impl.engine;

import dev.interlock.impl.device.Device;
import dev.interlock.impl.device.DeviceBuffer;
import dev.interlock.impl.sync.Mutex;
import dev.interlock.impl.sync.PermitSemaphore;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.sync.WaitRegistry;
import dev.interlock.impl.sync.WorkerInterrupted;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Semaphore;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Map;

/** What the workers of one run share: the device and the design's mutexes and semaphores, by name. */
public final class Resources {
  private final Device device;
  private final StepGate gate;
  private final WaitRegistry waits;
  private final Map<String, Mutex> mutexes = new LinkedHashMap<>();
  private final Map<String, PermitSemaphore> semaphores = new LinkedHashMap<>();

  Resources(Design design, Device device, StepGate gate, WaitRegistry waits) {
    this.device = device;
    this.gate = gate;
    this.waits = waits;
    for (String m : design.mutexes()) {
      mutexes.put(m, new Mutex(m, gate, waits));
    }
    for (Semaphore s : design.semaphores()) {
      semaphores.put(s.name(), new PermitSemaphore(s.name(), s.permits(), gate, waits));
    }
  }

  public Device device() {
    return device;
  }

  /** The mutex called {@code name}. */
  public Mutex mutex(String name) {
    Mutex m = mutexes.get(name);
    if (m == null) {
      throw new IllegalArgumentException("no mutex " + name + " (have " + mutexes.keySet() + ")");
    }
    return m;
  }

  /** The semaphore called {@code name}. */
  public PermitSemaphore semaphore(String name) {
    PermitSemaphore s = semaphores.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no semaphore " + name + " (have " + semaphores.keySet() + ")");
    }
    return s;
  }

  /** cudaDeviceSynchronize, under the gate's control when there is one. */
  public void synchronizeDevice() {
    if (device.trySynchronize()) {
      return;
    }
    if (gate.controlled()) {
      do {
        gate.blocked();
      } while (!device.trySynchronize());
      return;
    }
    waits.enter("sync (kernels running)");
    try {
      device.synchronize();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WorkerInterrupted("sync");
    } finally {
      waits.exit();
    }
  }

  /** The LEAK violation when {@code thread} ends {@code job} with live buffers, or empty. */
  Optional<Violation> leakAtJobEnd(String thread, Job job) {
    List<DeviceBuffer> leaked = device.liveBuffers(thread);
    if (leaked.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Violation(ViolationKind.LEAK, thread + " job " + job.id() + " ends with live buffers "
        + leaked.stream().map(DeviceBuffer::name).toList()));
  }

  /**
   * Releases what the calling thread still holds after a failed job: its mutexes, its permits and
   * its live buffers, so other workers are not left waiting on a dead job.
   */
  void releaseHeldBy(String thread) {
    for (Mutex m : mutexes.values()) {
      if (m.heldByCurrentThread()) {
        m.unlock();
      }
    }
    for (PermitSemaphore s : semaphores.values()) {
      int n = s.heldByCurrentThread();
      if (n > 0) {
        s.release(n);
      }
    }
    for (DeviceBuffer b : device.liveBuffers(thread)) {
      device.free(b);
    }
  }
}
