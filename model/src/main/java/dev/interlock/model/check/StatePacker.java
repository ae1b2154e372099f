package dev.interlock.model.check;

/**
 * The compact encoding of states in the {@link StateStore}: each state word keeps only the low bits the model says it
 * can set ({@code Model.wordBits}), laid end to end, so a state of many mostly empty words takes a few.
 *
 * <p>Packing is injective (a bijection onto the packed words), so packed states compare and hash as the states do.
 */
final class StatePacker {
  private final int[] bits;
  private final int packedWidth;

  StatePacker(int[] bits) {
    this.bits = bits.clone();
    long total = 0;
    for (int b : bits) {
      if (b < 0 || b > 64) {
        throw new IllegalArgumentException("a word of " + b + " bits");
      }
      total += b;
    }
    packedWidth = (int) Math.max(1, (total + 63) / 64);
  }

  /** Words of a packed state. */
  int packedWidth() {
    return packedWidth;
  }

  /** Packs state s into {@code into} (of {@link #packedWidth} words). */
  void pack(long[] s, long[] into) {
    int word = 0;
    int used = 0;
    long acc = 0;
    for (int i = 0; i < bits.length; i++) {
      int b = bits[i];
      long v = s[i];
      if (b < 64 && (v >>> b) != 0) {
        throw new IllegalStateException("state word " + i + " = " + v + " does not fit its " + b + " bits");
      }
      if (b == 0) {
        continue;
      }
      acc |= v << used;
      if (used + b >= 64) {
        into[word++] = acc;
        acc = used == 0 ? 0 : v >>> (64 - used);
        used = used + b - 64;
      } else {
        used += b;
      }
    }
    if (word < packedWidth) {
      into[word] = acc;
    }
  }

  /** Unpacks {@code packed} into state {@code into}. */
  void unpack(long[] packed, long[] into) {
    int word = 0;
    int used = 0;
    for (int i = 0; i < bits.length; i++) {
      int b = bits[i];
      if (b == 0) {
        into[i] = 0;
        continue;
      }
      long v = packed[word] >>> used;
      if (used + b >= 64) {
        word++;
        int rest = used + b - 64;
        if (rest > 0) {
          v |= packed[word] << (64 - used);
        }
        used = rest;
      } else {
        used += b;
      }
      into[i] = b == 64 ? v : v & ((1L << b) - 1);
    }
  }
}
