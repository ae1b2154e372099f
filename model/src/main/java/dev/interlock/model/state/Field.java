package dev.interlock.model.state;

/**
 * A bit field of a thread's or worker's packed state: {@code bits} bits at {@code shift} in word
 * {@code word} of a block. A field of 0 bits always reads 0.
 */
record Field(int word, int shift, long mask) {
  static final Field NONE = new Field(0, 0, 0);

  long get(long[] s, int base) {
    return (s[base + word] >>> shift) & mask;
  }

  void set(long[] s, int base, long v) {
    if ((v & ~mask) != 0) {
      throw new IllegalStateException("value " + v + " does not fit a field of mask " + mask);
    }
    s[base + word] = (s[base + word] & ~(mask << shift)) | (v << shift);
  }

  boolean present() {
    return mask != 0;
  }

  /** Hands out fields, packing them into as few words as possible without splitting a field across words. */
  static final class Allocator {
    private int word;
    private int used;
    private final java.util.List<Integer> usedBits = new java.util.ArrayList<>();

    Field add(int bits) {
      if (bits == 0) {
        return NONE;
      }
      if (bits > 64) {
        throw new IllegalArgumentException("a field of " + bits + " bits");
      }
      if (used + bits > 64) {
        usedBits.add(used);
        word++;
        used = 0;
      }
      Field f = new Field(word, used, bits == 64 ? -1L : (1L << bits) - 1);
      used += bits;
      return f;
    }

    /** Per word handed out so far: how many of its low bits fields use (the higher ones are always 0). */
    int[] usedBits() {
      int[] out = new int[width()];
      for (int i = 0; i < usedBits.size(); i++) {
        out[i] = usedBits.get(i);
      }
      out[out.length - 1] = used;
      return out;
    }

    /** Words used so far (at least 1). */
    int width() {
      return word + 1;
    }
  }

  static int bitsFor(long maxValue) {
    return maxValue <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(maxValue);
  }
}
