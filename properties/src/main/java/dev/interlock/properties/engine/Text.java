package dev.interlock.properties.engine;

import java.util.Arrays;

/** Renders values and failures for reports, bounded in length. */
final class Text {
  private static final int MAX_CHARS = 2_000;

  private Text() {}

  /** The value's {@code toString} (arrays element-wise), cut at a readable length. */
  static String show(Object value) {
    String s = value != null && value.getClass().isArray()
        ? unwrap(Arrays.deepToString(new Object[] {value}))
        : String.valueOf(value);
    return s.length() <= MAX_CHARS ? s : s.substring(0, MAX_CHARS) + "... (" + s.length() + " chars)";
  }

  private static String unwrap(String bracketed) {
    return bracketed.substring(1, bracketed.length() - 1);
  }

  /** The failure's {@code toString}, or a note that the predicate returned false. */
  static String failure(Throwable failure) {
    return failure == null ? "predicate returned false" : show(failure);
  }
}
