package dev.interlock.impl.device;

import dev.interlock.impl.api.DeviceCall;
import java.util.ArrayList;
import java.util.List;

/**
 * A device's log of its driver-level calls ({@link DeviceCall}), appended by the calling thread right after each call
 * returns: a call made under the device's monitor is logged there too, so the log's order is the calls' order.
 * Thread-safe; bounded by {@link #MAX_CALLS} (or less, when made so) so that a long benchmark stays bounded in memory.
 */
public final class DeviceCallLog {
  /** The most calls kept; later ones are counted in {@link #dropped()} but not kept. */
  public static final int MAX_CALLS = 1 << 22;

  private final List<DeviceCall> calls = new ArrayList<>();
  private final int max;
  private long dropped;

  /** A log that keeps up to {@link #MAX_CALLS} calls. */
  public DeviceCallLog() {
    this(MAX_CALLS);
  }

  /** A log that keeps up to {@code max} calls (0: none, only their count in {@link #dropped()}). */
  public DeviceCallLog(int max) {
    if (max < 0 || max > MAX_CALLS) {
      throw new IllegalArgumentException("max must be 0 to " + MAX_CALLS + ", got " + max);
    }
    this.max = max;
  }

  /** Logs a call of the current thread. */
  public void add(DeviceCall.Kind kind, String api, long ptr, long bytes, long total, boolean async, long stream,
      String kernel, int rc) {
    long nanos = System.nanoTime();
    Thread t = Thread.currentThread();
    synchronized (calls) {
      if (calls.size() >= max) {
        dropped++;
        return;
      }
      calls.add(new DeviceCall(calls.size(), t.getId(), t.getName(), kind, api, ptr, bytes, total, async, stream, kernel,
          rc, nanos));
    }
  }

  /** An allocation: {@code ptr} 0 when it failed. */
  public void alloc(String api, long ptr, long bytes, boolean async, long stream, int rc) {
    add(DeviceCall.Kind.ALLOC, api, ptr, bytes, 0, async, stream, "", rc);
  }

  /** A free of {@code ptr}. */
  public void free(String api, long ptr, boolean async, long stream, int rc) {
    add(DeviceCall.Kind.FREE, api, ptr, 0, 0, async, stream, "", rc);
  }

  /** A call of a kind without pointer or size (a synchronization), on {@code stream} (0: none). */
  public void plain(DeviceCall.Kind kind, String api, long stream, int rc) {
    add(kind, api, 0, 0, 0, false, stream, "", rc);
  }

  /** A kernel launch on {@code stream}. */
  public void launch(String api, String kernel, long stream, int rc) {
    add(DeviceCall.Kind.LAUNCH, api, 0, 0, 0, false, stream, kernel, rc);
  }

  /** The calls so far, in order. */
  public List<DeviceCall> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  /** How many calls were made beyond the most kept and not kept. */
  public long dropped() {
    synchronized (calls) {
      return dropped;
    }
  }
}
