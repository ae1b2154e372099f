package dev.interlock.gpu.cuda;

import dev.interlock.gpu.cuda.MsmPlan.Accumulation;
import java.util.Locale;
import java.util.Optional;

/**
 * The GPU MSM's {@code -Dinterlock.msm.*} settings, read and checked in one place: {@code affine} (the batch-affine
 * shape), {@code accumulation} (forces one), {@code sortPassEntries} (the plan's digits per key range of the scatter)
 * and {@code wave} (the accumulation's launch). MsmPlan and Kernels read them here; the CLI asks {@link #configurationError()} before a
 * command runs, so a bad one is bad input (exit 2, naming it), not a failed class initialization in the middle of a
 * run. This class holds no state, so asking it cannot fail the way MsmPlan's initialization would.
 */
public final class MsmSettings {
  private MsmSettings() {}

  /** The message of the first bad setting, if any. */
  public static Optional<String> configurationError() {
    try {
      affineShape();
      sortPassEntries();
      forcedAccumulation();
      wave();
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** {@code -Dinterlock.msm.affine=LEVELS,LOG2_SLICE,BATCH}, default 4,23,16 (see MsmPlan.AFFINE_LEVELS). */
  static int[] affineShape() {
    return affineShape(System.getProperty("interlock.msm.affine", "4,23,16"));
  }

  static int[] affineShape(String text) {
    String[] f = text.split(",", -1);
    try {
      if (f.length == 3) {
        int levels = Integer.parseInt(f[0].strip());
        int slice = Integer.parseInt(f[1].strip());
        int batch = Integer.parseInt(f[2].strip());
        if (levels >= 1 && levels <= 8 && slice >= levels && slice <= 28 && batch >= 1 && batch <= 4096) {
          return new int[] {levels, slice, batch};
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("-Dinterlock.msm.affine=" + text
        + ": expected LEVELS,LOG2_SLICE,BATCH with 1 <= LEVELS <= 8, LEVELS <= LOG2_SLICE <= 28, 1 <= BATCH <= 4096");
  }

  /**
   * {@code -Dinterlock.msm.sortPassEntries}: the plan's digits (windows·n) per key range of the scatter, default 2^25,
   * 0 for one launch (MsmPlan.scatterKeys; at most MsmPlan.MAX_SCATTER_LAUNCHES launches whatever it says).
   */
  static long sortPassEntries() {
    String value = System.getProperty("interlock.msm.sortPassEntries", "33554432");
    try {
      long entries = Long.parseLong(value.strip());
      if (entries >= 0) {
        return entries;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "-Dinterlock.msm.sortPassEntries=" + value + ": expected a non-negative number of digits per key range (0: one launch)");
  }

  /** {@code -Dinterlock.msm.accumulation=xyzz|xyzz_sqr|affine}, any case; empty when unset. */
  static Optional<Accumulation> forcedAccumulation() {
    String forced = System.getProperty("interlock.msm.accumulation");
    if (forced == null) {
      return Optional.empty();
    }
    for (Accumulation a : Accumulation.values()) {
      if (a.name().equals(forced.strip().toUpperCase(Locale.ROOT))) {
        return Optional.of(a);
      }
    }
    throw new IllegalArgumentException("-Dinterlock.msm.accumulation=" + forced + ": expected xyzz, xyzz_sqr or affine");
  }

  /** {@code -Dinterlock.msm.wave=true|false}, any case, default true (see Kernels.WAVE). */
  static boolean wave() {
    String value = System.getProperty("interlock.msm.wave", "true");
    if (value.strip().equalsIgnoreCase("true") || value.strip().equalsIgnoreCase("false")) {
      return value.strip().equalsIgnoreCase("true");
    }
    throw new IllegalArgumentException("-Dinterlock.msm.wave=" + value + ": expected true or false");
  }
}
