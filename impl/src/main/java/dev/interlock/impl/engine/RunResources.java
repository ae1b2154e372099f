package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Resources;
import dev.interlock.impl.sync.GatedMutex;
import dev.interlock.impl.sync.GatedSemaphore;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.sync.WaitRegistry;
import dev.interlock.impl.sync.WorkerInterrupted;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Semaphore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's {@link Resources}: what the threads of one run share, the design, the device with its device
 * buffers, and the design's mutexes and semaphores, by name.
 *
 * <p>Making it sets the pool's release threshold ({@code pool threshold}) and allocates the device
 * buffers ({@code buffer NAME SIZE}), before any thread runs; {@link #releaseDeviceBuffers()} frees
 * them at the run's end.
 */
public final class RunResources implements Resources {
  /** The owner of device buffers on the device: no thread, since they belong to the whole run. */
  public static final String DEVICE_BUFFERS = "device";

  private final Design design;
  private final Device device;
  private final StepGate gate;
  private final WaitRegistry waits;
  private final Map<String, GatedMutex> mutexes = new LinkedHashMap<>();
  private final Map<String, GatedSemaphore> semaphores = new LinkedHashMap<>();
  /** Made before any thread runs and never changed: read without a lock. */
  private final Map<String, DeviceBuffer> deviceBuffers;

  RunResources(Design design, Device device, StepGate gate, WaitRegistry waits) {
    this.design = design;
    this.device = device;
    this.gate = gate;
    this.waits = waits;
    for (String m : design.mutexes()) {
      mutexes.put(m, new GatedMutex(m, gate, waits));
    }
    for (Semaphore s : design.semaphores()) {
      semaphores.put(s.name(), new GatedSemaphore(s.name(), s.permits(), gate, waits));
    }
    device.poolThreshold(design.poolThreshold());
    Map<String, DeviceBuffer> made = new LinkedHashMap<>();
    for (ResidentBuffer b : design.buffers()) {
      made.put(b.name(), device.allocate(DEVICE_BUFFERS, b.name(), b.bytes(), false));
    }
    deviceBuffers = Collections.unmodifiableMap(made);
  }

  /** The design the run executes. */
  public Design design() {
    return design;
  }

  @Override
  public Device device() {
    return device;
  }

  /** The mutex called {@code name}. */
  @Override
  public GatedMutex mutex(String name) {
    GatedMutex m = mutexes.get(name);
    if (m == null) {
      throw new IllegalArgumentException("no mutex " + name + " (have " + mutexes.keySet() + ")");
    }
    return m;
  }

  /** The semaphore called {@code name}. */
  @Override
  public GatedSemaphore semaphore(String name) {
    GatedSemaphore s = semaphores.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no semaphore " + name + " (have " + semaphores.keySet() + ")");
    }
    return s;
  }

  /** The device buffer ({@code buffer NAME SIZE}) called {@code name}, or null when the design has none. */
  @Override
  public DeviceBuffer deviceBuffer(String name) {
    return deviceBuffers.isEmpty() ? null : deviceBuffers.get(name);
  }

  /** The device buffers by name. */
  @Override
  public Map<String, DeviceBuffer> deviceBuffers() {
    return deviceBuffers;
  }

  /** Frees the device buffers that are still live: the run has ended. */
  void releaseDeviceBuffers() {
    for (DeviceBuffer b : deviceBuffers.values()) {
      if (device.isLive(b)) {
        device.free(b);
      }
    }
  }

  /** cudaDeviceSynchronize, under the gate's control when there is one. */
  @Override
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

  /**
   * The mutexes held and the semaphore permits not given back now, one line each: empty once a run has ended cleanly.
   */
  List<String> held() {
    List<String> out = new ArrayList<>();
    for (GatedMutex m : mutexes.values()) {
      String owner = m.ownerName();
      if (owner != null) {
        out.add("mutex " + m.name() + " held by " + owner);
      }
    }
    for (Semaphore s : design.semaphores()) {
      int available = semaphores.get(s.name()).available();
      if (available != s.permits()) {
        out.add("semaphore " + s.name() + ": " + available + " of " + s.permits() + " permits free");
      }
    }
    return out;
  }

  /**
   * Releases the mutexes and permits the calling thread still holds, after its job failed, so other
   * workers are not left waiting on a dead job. (The job's buffers go when the job closes.)
   */
  void releaseLocksOfCurrentThread() {
    for (GatedMutex m : mutexes.values()) {
      if (m.heldByCurrentThread()) {
        m.unlock();
      }
    }
    for (GatedSemaphore s : semaphores.values()) {
      int n = s.heldByCurrentThread();
      if (n > 0) {
        s.release(n);
      }
    }
  }
}
