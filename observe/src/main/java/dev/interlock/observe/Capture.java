package dev.interlock.observe;

import java.util.List;
import java.util.Objects;

/**
 * A captured run as {@link CaptureFormat} read it: the header, the records in file order, and the reader's warnings
 * (such as a truncated last line), each {@code FILE:LINE:COL: warning: ...}.
 */
public record Capture(String source, long pid, String program, long startNs, List<CaptureEvent> events,
    List<String> warnings) {
  public Capture {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(program, "program");
    events = List.copyOf(events);
    warnings = List.copyOf(warnings);
  }
}
