package dev.interlock.prover;

import java.nio.file.Path;
import java.util.Objects;

/** A key file could not be read or written; the message names the file and says what is wrong. */
public final class KeyFileException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  /** "file: problem". */
  public KeyFileException(Path file, String problem) {
    this(file, problem, null);
  }

  /** "file: problem", with the underlying cause. */
  public KeyFileException(Path file, String problem, Throwable cause) {
    super(Objects.requireNonNull(file, "file") + ": " + problem, cause);
    this.file = file;
  }

  /** The file concerned. */
  public Path file() {
    return file;
  }
}
