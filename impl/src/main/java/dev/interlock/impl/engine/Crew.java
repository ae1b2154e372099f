package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.fault.InjectedFault;
import dev.interlock.model.state.ViolationKind;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A role thread with the task threads its jobs spawn: what the design language calls one worker.
 * It owns the kept buffers ({@code alloc B SIZE keep}), which outlive jobs, and counts its open
 * jobs, so that the kept buffers are released once the role thread has finished its last job and
 * every task of that job has ended, as the model does.
 *
 * <p>Thread-safe: the role thread and the tasks of its jobs use it at once.
 */
public final class Crew {
  private final String roleThread;
  private final Device device;
  private final Map<String, DeviceBuffer> kept = new LinkedHashMap<>();
  /** Kept buffers whose allocation failed and was ignored: missing until an allocation of them succeeds. */
  private final Set<String> missing = new HashSet<>();
  private int jobs;
  private int open;
  private boolean finished;

  Crew(String roleThread, Device device) {
    this.roleThread = roleThread;
    this.device = device;
  }

  /** The role thread's name, {@code role#i}. */
  public String roleThread() {
    return roleThread;
  }

  /**
   * The step {@code alloc B SIZE keep}: allocates B through {@code allocate} unless the crew's kept B
   * is live, in which case the step allocates nothing.
   */
  public synchronized void keep(String buffer, Supplier<DeviceBuffer> allocate) {
    if (!kept.containsKey(buffer)) {
      kept.put(buffer, allocate.get());
      missing.remove(buffer);
    }
  }

  /** The allocation of kept buffer B failed and the design ignores it: B is missing, as a job's buffer would be. */
  public synchronized void markMissing(String buffer) {
    missing.add(buffer);
  }

  /** Whether kept buffer {@code buffer} is missing: its allocation failed and was ignored. */
  public synchronized boolean isMissing(String buffer) {
    return missing.contains(buffer);
  }

  /** The kept buffer called {@code buffer}, or null when it is not live. */
  public synchronized DeviceBuffer kept(String buffer) {
    return kept.get(buffer);
  }

  /**
   * The step {@code free B} of a kept buffer, on thread {@code thread}'s stream.
   *
   * @throws dev.interlock.impl.device.BufferNotLiveException (BAD_FREE) when B is not live
   */
  public synchronized void free(String buffer, String thread) {
    DeviceBuffer b = kept.get(buffer);
    if (b == null && missing.remove(buffer)) {
      return; // the failed allocation left a null pointer, whose cudaFree does nothing
    }
    if (b == null) {
      throw new BufferNotLiveException(ViolationKind.BAD_FREE, thread + " free " + buffer + ": " + roleThread
          + " has no live kept " + buffer);
    }
    device.free(b, thread);
    kept.remove(buffer);
  }

  /** The live kept buffers by name. */
  public synchronized Map<String, DeviceBuffer> keptBuffers() {
    return new LinkedHashMap<>(kept);
  }

  /** A job begins: its 0-based number among the role thread's jobs. */
  synchronized int begin() {
    open++;
    return jobs++;
  }

  /**
   * A job has closed (its thread and tasks ended); after a failure the kept buffers go too, as the
   * model's restart of a worker frees them.
   */
  synchronized void closed(boolean ok) {
    open--;
    if (!ok || finished && open == 0) {
      releaseKept();
    }
  }

  /** The role thread has finished its last job; the kept buffers go once no job of it is open. */
  synchronized void finish() {
    finished = true;
    if (open == 0) {
      releaseKept();
    }
  }

  /** Frees the kept buffers on the role thread's stream, without a step of their own. */
  private void releaseKept() {
    for (DeviceBuffer b : kept.values()) {
      try {
        if (device.isLive(b)) {
          device.free(b, roleThread);
        }
      } catch (InjectedFault e) {
        // the device was poisoned meanwhile: the buffer goes with its context, which the engine reopens
      }
    }
    kept.clear();
    missing.clear();
  }
}
