package dev.interlock.properties.fuzz;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A reader under fuzzing: its name, the file name errors are reported under, how it parses text, and the one
 * exception type it may throw, whose message must be {@code FILE:LINE:COL: message} on one line (no LF, no CR).
 */
public record Reader(String name, String file, Parse parse, Class<? extends Exception> positioned) {
  /** Parses {@code text}, reported under {@code file}; returns the value read. */
  @FunctionalInterface
  public interface Parse {
    Object parse(String file, String text) throws Exception;
  }

  public Reader {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(parse, "parse");
    Objects.requireNonNull(positioned, "positioned");
  }

  /** The message of a positioned error: the file, a line from 1, an optional column from 1, and a message. */
  Pattern message() {
    return Pattern.compile(Pattern.quote(file) + ":[1-9][0-9]*(:[1-9][0-9]*)?: \\S[^\\n\\r]*");
  }
}
