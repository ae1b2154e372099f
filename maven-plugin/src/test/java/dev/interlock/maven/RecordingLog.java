package dev.interlock.maven;

import java.util.ArrayList;
import java.util.List;

/** A goal's log kept as lines "LEVEL text", for the tests of the goals' work. */
final class RecordingLog implements DesignsCheck.Log {
  /** What was logged, in order. */
  final List<String> lines = new ArrayList<>();

  @Override
  public void info(String line) {
    lines.add("INFO " + line);
  }

  @Override
  public void warn(String line) {
    lines.add("WARN " + line);
  }

  @Override
  public void error(String line) {
    lines.add("ERROR " + line);
  }
}
