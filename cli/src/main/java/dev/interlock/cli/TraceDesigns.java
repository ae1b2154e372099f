package dev.interlock.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Finds a trace's design file from the source path the trace records: shared by replay and show. */
final class TraceDesigns {
  private TraceDesigns() {}

  /**
   * The design file of trace {@code file}: {@code recorded} from here, or from the trace's folder and the one above it;
   * {@code remedy} ends the message when none is found (what the command lets the user do about it).
   */
  static Path locate(Path file, String recorded, String remedy) {
    List<Path> tried = new ArrayList<>();
    Path p = Path.of(recorded);
    tried.add(p);
    Path dir = file.toAbsolutePath().getParent();
    for (int up = 0; up < 2 && dir != null && !p.isAbsolute(); up++, dir = dir.getParent()) {
      tried.add(dir.resolve(recorded));
    }
    for (Path c : tried) {
      if (Files.isRegularFile(c)) {
        return c;
      }
    }
    throw new CliError(file + ": design file '" + recorded + "' not found (looked at " + tried + "); " + remedy);
  }
}
