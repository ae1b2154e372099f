package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.field.Fr;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/**
 * Fixed-base scalar multiplication k·P for one base P, by a windowed table: with window w = {@value #WINDOW} bits,
 * table[i][d-1] = d·2^(w·i)·P for d in [1, 2^w), i over the ⌈255/w⌉ windows; k·P is then the sum of one table entry
 * per non-zero window digit (at most 26 additions instead of ~255 doublings and ~50 additions). Tables are built once
 * per generator ({@link #g1()}, {@link #g2()}, about 26 600 points each) and shared; immutable and thread-safe.
 *
 * @param <T> the group element type (G1 or G2)
 */
final class FixedBase<T> {
  /** Window width in bits. */
  static final int WINDOW = 10;
  private static final int WINDOWS = (Fr.BITS + WINDOW - 1) / WINDOW;

  private final Object[][] table;
  private final T identity;
  private final BinaryOperator<T> add;

  private FixedBase(T base, T identity, BinaryOperator<T> add, UnaryOperator<T> dbl) {
    this.identity = identity;
    this.add = add;
    this.table = new Object[WINDOWS][(1 << WINDOW) - 1];
    T windowBase = base;
    for (int i = 0; i < WINDOWS; i++) {
      Object[] row = table[i];
      row[0] = windowBase;
      for (int d = 1; d < row.length; d++) {
        @SuppressWarnings("unchecked")
        T prev = (T) row[d - 1];
        row[d] = add.apply(prev, windowBase);
      }
      for (int s = 0; s < WINDOW; s++) {
        windowBase = dbl.apply(windowBase);
      }
    }
  }

  private static final class G1Holder {
    static final FixedBase<G1> INSTANCE = new FixedBase<>(G1.generator(), G1.identity(), G1::add, G1::dbl);
  }

  private static final class G2Holder {
    static final FixedBase<G2> INSTANCE = new FixedBase<>(G2.generator(), G2.identity(), G2::add, G2::dbl);
  }

  /** The table of the G1 generator. */
  static FixedBase<G1> g1() {
    return G1Holder.INSTANCE;
  }

  /** The table of the G2 generator. */
  static FixedBase<G2> g2() {
    return G2Holder.INSTANCE;
  }

  /** The table's entries row by row: entry i·(2^WINDOW - 1) + d - 1 is d·2^(WINDOW·i)·P. */
  List<T> entries() {
    List<T> out = new ArrayList<>();
    for (Object[] row : table) {
      for (Object e : row) {
        @SuppressWarnings("unchecked")
        T t = (T) e;
        out.add(t);
      }
    }
    return out;
  }

  /** k·P for the element ki of a Montgomery Fr vector. */
  T mul(long[] montgomery, int ki) {
    long[] c = new long[Fr.LIMBS];
    Fr.toCanonicalLimbs(montgomery, ki, c, 0);
    T acc = null;
    for (int i = 0; i < WINDOWS; i++) {
      int digit = digit(c, i * WINDOW);
      if (digit != 0) {
        @SuppressWarnings("unchecked")
        T e = (T) table[i][digit - 1];
        acc = acc == null ? e : add.apply(acc, e);
      }
    }
    return acc == null ? identity : acc;
  }

  /** k_i·P for every element of a Montgomery Fr vector, in parallel (deterministic: each result is independent). */
  T[] mulAll(long[] montgomery, IntFunction<T[]> newArray) {
    int n = Fr.size(montgomery);
    T[] out = newArray.apply(n);
    IntStream.range(0, n).parallel().forEach(i -> out[i] = mul(montgomery, i));
    return out;
  }

  /** The WINDOW bits of canonical limbs c starting at bit. */
  private static int digit(long[] c, int bit) {
    int limb = bit >>> 6;
    int off = bit & 63;
    long v = c[limb] >>> off;
    if (off + WINDOW > 64 && limb + 1 < c.length) {
      v |= c[limb + 1] << (64 - off);
    }
    return (int) (v & ((1 << WINDOW) - 1));
  }
}
