package dev.interlock.observe;

import dev.interlock.impl.api.DeviceCall;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes a device's own call log ({@link DeviceCall}) in the capture format (docs/capture.md, "The engine's own device
 * calls"), so that {@link DeviceCallMatch} reads both sides with the one reader: each call as the record the capture
 * library writes for it, TID the Java thread's id, each thread named by a {@code thread_name} record with its full Java
 * name before its first call.
 */
public final class DeviceCallFile {
  /** The comment line that says what the TID column holds in such a file. */
  public static final String COMMENT = "# engine device calls: TID is the Java thread id; written by interlock run --device-calls";

  private DeviceCallFile() {}

  /** The records of {@code calls}, numbered from line 4 (after the header and the comment). */
  public static List<CaptureEvent> records(List<DeviceCall> calls) {
    List<CaptureEvent> out = new ArrayList<>();
    Set<Long> named = new HashSet<>();
    int line = 4;
    for (DeviceCall c : calls) {
      if (named.add(c.threadId())) {
        out.add(new CaptureEvent.ThreadName(line++, c.nanos(), c.threadId(), c.threadName(), c.threadId()));
      }
      out.add(record(line++, c));
    }
    return out;
  }

  /** The whole file: header ({@code program} says what ran), the comment, the records. */
  public static String text(List<DeviceCall> calls, long pid, String program) {
    StringBuilder sb = new StringBuilder(CaptureFormat.header(pid, program, calls.isEmpty() ? 0 : calls.get(0).nanos()));
    sb.append(COMMENT).append('\n');
    for (CaptureEvent e : records(calls)) {
      sb.append(CaptureFormat.format(e)).append('\n');
    }
    return sb.toString();
  }

  /** The record the capture library writes for call {@code c}. */
  static CaptureEvent record(int line, DeviceCall c) {
    long ns = c.nanos();
    long tid = c.threadId();
    String stream = c.stream() == 0 ? "-" : CaptureFormat.hex(c.stream());
    return switch (c.kind()) {
      case ALLOC -> new CaptureEvent.Alloc(line, ns, tid, c.ptr(), c.bytes(), c.async(), stream, c.rc(), c.api());
      case FREE -> new CaptureEvent.Free(line, ns, tid, c.ptr(), c.async(), stream, c.rc(), c.api());
      case TRIM -> new CaptureEvent.Trim(line, ns, tid, 0, c.bytes(), c.rc());
      case POOL_THRESHOLD -> new CaptureEvent.PoolThreshold(line, ns, tid, 0, c.bytes(), c.rc());
      case MEMINFO -> new CaptureEvent.MemInfo(line, ns, tid, c.bytes(), c.total(), c.rc());
      case SYNC -> new CaptureEvent.Sync(line, ns, tid, c.rc(), c.api());
      case SYNC_STREAM -> new CaptureEvent.SyncStream(line, ns, tid, stream, c.rc());
      case LAUNCH -> new CaptureEvent.Launch(line, ns, tid, c.kernel(), stream, c.seq() + 1, c.rc());
    };
  }
}
