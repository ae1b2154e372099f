package dev.interlock.model.step;

import java.util.regex.Pattern;

/** Validation of identifiers (mutex, semaphore, buffer, interval, role and design names). */
public final class Names {
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");

  private Names() {}

  /** True when {@code s} may name something in a design. */
  public static boolean isIdentifier(String s) {
    return s != null && IDENTIFIER.matcher(s).matches();
  }

  /** Returns {@code s}, or throws if it is not an identifier. */
  public static String require(String what, String s) {
    if (!isIdentifier(s)) {
      throw new IllegalArgumentException(what + " is not a valid name: '" + s + "'");
    }
    return s;
  }
}
