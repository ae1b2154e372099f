package dev.interlock.properties.engine;

import java.nio.charset.StandardCharsets;

/** Derives seeds: a stable default from a property's name, and one per try from the run seed. */
final class Seeds {
  private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;

  private Seeds() {}

  /** A stable, non-negative seed from a name (FNV-1a over UTF-8, then mixed). */
  static long ofName(String name) {
    long h = 0xCBF2_9CE4_8422_2325L;
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xFF)) * 0x0100_0000_01B3L;
    }
    return mix(h) & Long.MAX_VALUE;
  }

  /** The seed of try {@code index} of a run with seed {@code runSeed}. */
  static long forTry(long runSeed, int index) {
    return mix(runSeed + GOLDEN * (index + 1L));
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }
}
