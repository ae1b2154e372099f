package dev.interlock.model.design;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The size above which design and trace files are refused rather than read whole into memory: 64 MiB by default
 * (a design is a few hundred lines, a trace of 10,000 transitions about 1 MB), {@code -Dinterlock.max-file-size=SIZE}
 * to raise it (e.g. {@code INTERLOCK_JAVA_OPTS=-Dinterlock.max-file-size=1GiB}).
 */
public final class FileSizeLimit {
  /** The system property that sets the limit, a size such as {@code 256MiB}. */
  public static final String PROPERTY = "interlock.max-file-size";

  /** The limit when the property is not set. */
  public static final long DEFAULT_BYTES = 64L * Sizes.MIB;

  private FileSizeLimit() {}

  /** The limit in bytes: the property's size when set, else {@link #DEFAULT_BYTES}. */
  public static long bytes() {
    String value = System.getProperty(PROPERTY);
    if (value == null || value.isBlank()) {
      return DEFAULT_BYTES;
    }
    Sizes.Parsed p = Sizes.parse(value.strip());
    if (p.bytes().isEmpty()) {
      throw new IllegalArgumentException("-D" + PROPERTY + ": " + p.error());
    }
    return p.bytes().get();
  }

  /**
   * Why {@code file} is not read, when it is a regular file larger than the limit: the message after
   * {@code FILE:1:1: }, naming both sizes and how to raise the limit; empty when it may be read.
   */
  public static Optional<String> refusal(Path file) throws IOException {
    long limit;
    try {
      limit = bytes();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    long size = Files.size(file);
    if (size <= limit) {
      return Optional.empty();
    }
    return Optional.of("file of " + String.format(java.util.Locale.ROOT, "%.1f", size / (double) Sizes.MIB)
        + " MiB is larger than the limit of " + Sizes.format(limit) + " (raise it with -D" + PROPERTY
        + "=SIZE, e.g. INTERLOCK_JAVA_OPTS=-D" + PROPERTY + "=1GiB)");
  }
}
