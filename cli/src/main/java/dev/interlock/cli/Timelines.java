package dev.interlock.cli;

import dev.interlock.view.timeline.CaptureTimeline;
import dev.interlock.view.timeline.ChromeTrace;
import java.nio.file.Path;

/** The {@code --timeline-json OUT.json} of a captured run (show, validate): its timeline, written through TraceFiles. */
final class Timelines {
  private Timelines() {}

  /** Writes the timeline of {@code in}'s capture, with its mapping's names, to {@code out}; the capture's record count. */
  static int capture(Path out, boolean force, CaptureInputs in) {
    TraceFiles.write(ChromeTrace.json(CaptureTimeline.of(in.capture(), in.mapping())), out, force, "timeline");
    return in.capture().events().size();
  }
}
