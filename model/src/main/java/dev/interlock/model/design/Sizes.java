package dev.interlock.model.design;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Byte sizes as written in designs and traces: {@code 12GiB}, {@code 1.5GiB}, {@code 512MiB}, {@code 100B}.
 *
 * <p>Units are binary; KB, MB and GB mean KiB, MiB and GiB, because that is what CUDA users mean.
 * {@link #format} picks the largest unit that represents the size exactly, so parse(format(x)) == x.
 */
public final class Sizes {
  public static final long KIB = 1L << 10;
  public static final long MIB = 1L << 20;
  public static final long GIB = 1L << 30;

  private static final Pattern SIZE = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)([A-Za-z]*)");

  private Sizes() {}

  /** Parses a size, or explains in the returned error why it is not one. */
  public static Parsed parse(String text) {
    Matcher m = SIZE.matcher(text);
    if (!m.matches()) {
      return Parsed.error("bad size '" + text + "': expected a number and a unit, e.g. 12GiB");
    }
    String unit = m.group(2);
    if (unit.isEmpty()) {
      return Parsed.error("size '" + text + "' needs a unit: B, KiB, MiB or GiB");
    }
    long scale;
    switch (unit.toUpperCase(Locale.ROOT)) {
      case "B" -> scale = 1;
      case "KIB", "KB" -> scale = KIB;
      case "MIB", "MB" -> scale = MIB;
      case "GIB", "GB" -> scale = GIB;
      default -> {
        return Parsed.error("bad size unit '" + unit + "' in '" + text + "': use B, KiB, MiB or GiB");
      }
    }
    BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(scale));
    if (bytes.signum() == 0) {
      return Parsed.error("size '" + text + "' must be positive");
    }
    if (bytes.stripTrailingZeros().scale() > 0) {
      return Parsed.error("size '" + text + "' is not a whole number of bytes");
    }
    if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 4)) > 0) {
      return Parsed.error("size '" + text + "' is too large");
    }
    return new Parsed(Optional.of(bytes.longValueExact()), null);
  }

  /** Parses a size that must be valid, e.g. a literal in code. */
  public static long parseOrThrow(String text) {
    Parsed p = parse(text);
    return p.bytes().orElseThrow(() -> new IllegalArgumentException(p.error()));
  }

  /** The exact, shortest form: the largest unit that divides {@code bytes}. */
  public static String format(long bytes) {
    if (bytes != 0 && bytes % GIB == 0) {
      return bytes / GIB + "GiB";
    }
    if (bytes != 0 && bytes % MIB == 0) {
      return bytes / MIB + "MiB";
    }
    if (bytes != 0 && bytes % KIB == 0) {
      return bytes / KIB + "KiB";
    }
    return bytes + "B";
  }

  /** A parse result: the bytes, or an error message. */
  public record Parsed(Optional<Long> bytes, String error) {
    static Parsed error(String message) {
      return new Parsed(Optional.empty(), message);
    }
  }
}
