package dev.interlock.cli;

import dev.interlock.observe.Capture;
import dev.interlock.observe.CaptureFormat;
import dev.interlock.observe.CaptureFormatException;
import dev.interlock.observe.Mapping;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * A captured run and its mapping file as {@code validate} and {@code infer} read them: bad input is one positioned line
 * (exit 2), and the reader's warnings (a truncated last record) go to standard error.
 *
 * @param capture the run
 * @param mapping the mapping file's, or {@link Mapping#NONE} without one
 */
record CaptureInputs(Capture capture, Mapping mapping) {
  /** Reads {@code captureFile} and {@code mapFile} (null: none) and prints the capture's warnings on {@code err}. */
  static CaptureInputs read(Path captureFile, Path mapFile, PrintWriter err) {
    CaptureInputs in;
    try {
      in = new CaptureInputs(CaptureFormat.read(captureFile), mapFile == null ? Mapping.NONE : Mapping.read(mapFile));
    } catch (CaptureFormatException e) {
      throw new CliError(e.getMessage());
    }
    in.capture().warnings().forEach(err::println);
    err.flush();
    return in;
  }
}
