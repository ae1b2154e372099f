package dev.interlock.impl.api;

import java.util.Objects;

/**
 * One driver-level call a device made, as the capture library would record it (docs/capture.md, "The engine's own
 * device calls"): what, on which Java thread, with which arguments and result. Devices log these so that a capture of
 * the engine can be compared with what the engine did, call for call, instead of inferring the calls from its steps.
 *
 * @param seq        the call's place in its device's log (0-based)
 * @param threadId   the calling Java thread's id
 * @param threadName the calling Java thread's name
 * @param kind       what kind of call
 * @param api        the call as the device made it, e.g. JCuda's {@code cuMemAlloc}
 * @param ptr        device pointer allocated (0 when the allocation failed) or freed; 0 for other kinds
 * @param bytes      bytes allocated, the release threshold set ({@code Long.MAX_VALUE}: max), the bytes a trim keeps,
 *                   or the free bytes cuMemGetInfo returned; 0 for other kinds
 * @param total      the total bytes cuMemGetInfo returned; 0 for other kinds
 * @param async      whether an allocation or free was stream-ordered
 * @param stream     the stream handle of a stream-ordered call (0: none)
 * @param kernel     a launch's kernel name; empty for other kinds
 * @param rc         the call's return code (a CUresult: 0 success, 2 out of memory)
 * @param nanos      {@link System#nanoTime()} when the call returned (CLOCK_MONOTONIC on Linux, the capture's clock)
 */
public record DeviceCall(long seq, long threadId, String threadName, Kind kind, String api, long ptr, long bytes, long total,
    boolean async, long stream, String kernel, int rc, long nanos) {
  /** The kinds of call a capture records for the device side (alloc, free, trim, threshold, meminfo, syncs, launch). */
  public enum Kind { ALLOC, FREE, TRIM, POOL_THRESHOLD, MEMINFO, SYNC, SYNC_STREAM, LAUNCH }

  /** CUDA_ERROR_OUT_OF_MEMORY. */
  public static final int OUT_OF_MEMORY = 2;

  public DeviceCall {
    Objects.requireNonNull(threadName, "threadName");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(kernel, "kernel");
    if (seq < 0) {
      throw new IllegalArgumentException("negative call index " + seq);
    }
    if (api == null || api.isEmpty()) {
      throw new IllegalArgumentException("a device call needs its api name");
    }
    if (bytes < 0 || total < 0) {
      throw new IllegalArgumentException(api + ": negative size " + bytes + " / " + total);
    }
    if ((kind == Kind.LAUNCH) == kernel.isEmpty()) {
      throw new IllegalArgumentException(api + ": a launch, and only a launch, names its kernel");
    }
  }

  /** Whether the call succeeded. */
  public boolean ok() {
    return rc == 0;
  }
}
