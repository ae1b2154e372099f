package dev.interlock.model.design;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations of intervals as written after {@code for}: {@code 0.5s}, {@code 120ms}, {@code 40us}, {@code 7ns}. */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(s|ms|us|ns)");

  private Durations() {}

  /** Parses a duration, or returns an error message. */
  public static Parsed parse(String text) {
    Matcher m = DURATION.matcher(text);
    if (!m.matches()) {
      return new Parsed(Optional.empty(), "bad duration '" + text + "': expected e.g. 0.5s, 120ms, 40us");
    }
    long nanosPerUnit = switch (m.group(2)) {
      case "s" -> 1_000_000_000L;
      case "ms" -> 1_000_000L;
      case "us" -> 1_000L;
      default -> 1L;
    };
    BigDecimal nanos = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(nanosPerUnit));
    if (nanos.signum() == 0) {
      return new Parsed(Optional.empty(), "duration '" + text + "' must be positive");
    }
    if (nanos.stripTrailingZeros().scale() > 0) {
      return new Parsed(Optional.empty(), "duration '" + text + "' is finer than a nanosecond");
    }
    if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      return new Parsed(Optional.empty(), "duration '" + text + "' is too long");
    }
    return new Parsed(Optional.of(Duration.ofNanos(nanos.longValueExact())), null);
  }

  /** The exact, shortest form in the largest unit that divides it. */
  public static String format(Duration d) {
    long nanos = d.toNanos();
    if (nanos % 1_000_000_000L == 0) {
      return nanos / 1_000_000_000L + "s";
    }
    if (nanos % 1_000_000L == 0) {
      return nanos / 1_000_000L + "ms";
    }
    if (nanos % 1_000L == 0) {
      return nanos / 1_000L + "us";
    }
    return nanos + "ns";
  }

  /** Throws unless {@code d} is positive. */
  public static void requirePositive(Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("duration must be positive, got " + d);
    }
  }

  /** A parse result: the duration, or an error message. */
  public record Parsed(Optional<Duration> duration, String error) {}
}
