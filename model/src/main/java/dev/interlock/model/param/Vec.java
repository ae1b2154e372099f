package dev.interlock.model.param;

import java.util.Arrays;

/**
 * A sparse vector of naturals over local states, plus one extra coordinate, the live bytes of all workers: an
 * element of a basis of an upward-closed set of configurations. Immutable; coordinates are sorted, zeros left out.
 */
final class Vec {
  /** The coordinate of the live bytes; local state l is coordinate l + 1. */
  static final int LIVE = 0;

  final int[] keys;
  final long[] values;

  private Vec(int[] keys, long[] values) {
    this.keys = keys;
    this.values = values;
  }

  /** One worker in local state l beside at least {@code liveBytes} live bytes. */
  static Vec of(int local, long liveBytes) {
    return liveBytes > 0 ? new Vec(new int[] {LIVE, local + 1}, new long[] {liveBytes, 1})
        : new Vec(new int[] {local + 1}, new long[] {1});
  }

  long get(int key) {
    int i = Arrays.binarySearch(keys, key);
    return i < 0 ? 0 : values[i];
  }

  /** Whether this vector is at most {@code o} in every coordinate. */
  boolean leq(Vec o) {
    int j = 0;
    for (int i = 0; i < keys.length; i++) {
      while (j < o.keys.length && o.keys[j] < keys[i]) {
        j++;
      }
      if (j == o.keys.length || o.keys[j] != keys[i] || o.values[j] < values[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The least vector x with x ≥ need and x + delta ≥ this, where a move of one worker from local state {@code from}
   * to {@code to} adds {@code liveDelta} live bytes: the basis element of the configurations from which that move
   * enters the upward closure of this vector.
   */
  Vec pre(int from, int to, long liveDelta) {
    int f = from + 1;
    int t = to + 1;
    int[] k = Arrays.copyOf(keys, keys.length + 3);
    long[] v = Arrays.copyOf(values, values.length + 3);
    int n = keys.length;
    n = adjust(k, v, n, LIVE, -liveDelta, liveDelta < 0 ? -liveDelta : 0);
    if (f != t) {
      n = adjust(k, v, n, t, -1, 0);
    }
    n = adjust(k, v, n, f, f != t ? 1 : 0, 1);
    return normalize(k, v, n);
  }

  /** Sets coordinate key to max(floor, value + add), clipped at 0; appends it when absent. */
  private static int adjust(int[] k, long[] v, int n, int key, long add, long floor) {
    for (int i = 0; i < n; i++) {
      if (k[i] == key) {
        v[i] = Math.max(floor, Math.max(0, v[i] + add));
        return n;
      }
    }
    k[n] = key;
    v[n] = Math.max(floor, Math.max(0, add));
    return n + 1;
  }

  private static Vec normalize(int[] k, long[] v, int n) {
    Integer[] order = new Integer[n];
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (v[i] != 0) {
        order[m++] = i;
      }
    }
    Arrays.sort(order, 0, m, (a, b) -> Integer.compare(k[a], k[b]));
    int[] keys = new int[m];
    long[] values = new long[m];
    for (int i = 0; i < m; i++) {
      keys[i] = k[order[i]];
      values[i] = v[order[i]];
    }
    return new Vec(keys, values);
  }

  /**
   * This vector with its live bytes dropped when the workers it counts already hold that many: on every configuration
   * the system reaches, the live coordinate is the sum of its workers' live bytes, so the two vectors cover the same
   * reachable configurations (docs/parameterized.md says why dropping it is sound).
   */
  Vec withoutImpliedLive(LocalSystem local) {
    if (keys.length == 0 || keys[0] != LIVE) {
      return this;
    }
    long held = 0;
    for (int i = 1; i < keys.length; i++) {
      held += values[i] * local.live(keys[i] - 1);
    }
    if (held < values[0]) {
      return this;
    }
    return new Vec(Arrays.copyOfRange(keys, 1, keys.length), Arrays.copyOfRange(values, 1, values.length));
  }

  /** Sum of the worker counts (the live coordinate left out). */
  long workers() {
    long n = 0;
    for (int i = 0; i < keys.length; i++) {
      n += keys[i] == LIVE ? 0 : values[i];
    }
    return n;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Vec x && Arrays.equals(keys, x.keys) && Arrays.equals(values, x.values);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(keys) + Arrays.hashCode(values);
  }
}
