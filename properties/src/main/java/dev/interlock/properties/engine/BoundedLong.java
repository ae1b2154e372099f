package dev.interlock.properties.engine;

/**
 * Encodes a long in {@code [lo, hi]} as choices that shrink toward {@code lo}: one choice when the
 * range fits an int, else 31-bit chunks, most significant first, redrawn when above the range.
 */
final class BoundedLong {
  private static final int CHUNK_BITS = 31;
  private static final long CHUNK_MASK = (1L << CHUNK_BITS) - 1;

  private BoundedLong() {}

  /** A value in {@code [lo, hi]}; requires {@code lo <= hi}. */
  static long draw(Source s, long lo, long hi) {
    long range = hi - lo; // unsigned: up to 2^64 - 1
    if (Long.compareUnsigned(range, Integer.MAX_VALUE) <= 0) {
      return lo + s.choose((int) range);
    }
    int bits = Long.SIZE - Long.numberOfLeadingZeros(range);
    int topShift = ((bits - 1) / CHUNK_BITS) * CHUNK_BITS;
    int topMax = (int) (range >>> topShift);
    while (true) { // rejection sampling: each round is accepted with probability > 1/2
      long offset = (long) s.choose(topMax) << topShift;
      for (int shift = topShift - CHUNK_BITS; shift >= 0; shift -= CHUNK_BITS) {
        offset |= (long) s.choose((int) CHUNK_MASK) << shift;
      }
      if (Long.compareUnsigned(offset, range) <= 0) {
        return lo + offset;
      }
    }
  }
}
