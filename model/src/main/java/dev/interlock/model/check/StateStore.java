package dev.interlock.model.check;

import java.util.Arrays;

/**
 * The visited set and BFS queue in one: fixed-width states appended to chunked arrays, indexed by
 * an open-addressing hash table, with the parent of each state for trace reconstruction.
 *
 * <p>States are never removed, so index order is discovery order, which in a breadth-first search
 * is also non-decreasing depth. Millions of states fit: a state costs {@code 8 * width} bytes plus
 * about 12 bytes of table and parent.
 */
final class StateStore {
  private static final int CHUNK_BITS = 14;
  private static final int CHUNK_STATES = 1 << CHUNK_BITS;

  private final int width;
  private long[][] chunks = new long[16][];
  private int[] parents = new int[CHUNK_STATES];
  private int[] table = new int[1 << 12];
  private int size;

  StateStore(int width) {
    this.width = width;
  }

  int size() {
    return size;
  }

  /** Adds s (copied) with the given parent and returns its index, or -1 when it is already present. */
  int add(long[] s, int parent) {
    if ((size + 1) * 2L > table.length) {
      grow();
    }
    int mask = table.length - 1;
    int slot = hash(s, 0, width) & mask;
    while (true) {
      int e = table[slot];
      if (e == 0) {
        break;
      }
      if (equalsAt(e - 1, s)) {
        return -1;
      }
      slot = (slot + 1) & mask;
    }
    int idx = size++;
    int chunk = idx >>> CHUNK_BITS;
    if (chunk == chunks.length) {
      chunks = Arrays.copyOf(chunks, chunks.length * 2);
    }
    if (chunks[chunk] == null) {
      chunks[chunk] = new long[CHUNK_STATES * width];
    }
    System.arraycopy(s, 0, chunks[chunk], (idx & (CHUNK_STATES - 1)) * width, width);
    if (idx == parents.length) {
      parents = Arrays.copyOf(parents, parents.length * 2);
    }
    parents[idx] = parent;
    table[slot] = idx + 1;
    return idx;
  }

  /** Copies state idx into {@code into}. */
  void load(int idx, long[] into) {
    System.arraycopy(chunks[idx >>> CHUNK_BITS], (idx & (CHUNK_STATES - 1)) * width, into, 0, width);
  }

  int parent(int idx) {
    return parents[idx];
  }

  private boolean equalsAt(int idx, long[] s) {
    long[] c = chunks[idx >>> CHUNK_BITS];
    int off = (idx & (CHUNK_STATES - 1)) * width;
    for (int i = 0; i < width; i++) {
      if (c[off + i] != s[i]) {
        return false;
      }
    }
    return true;
  }

  private void grow() {
    int[] bigger = new int[table.length * 2];
    int mask = bigger.length - 1;
    for (int idx = 0; idx < size; idx++) {
      long[] c = chunks[idx >>> CHUNK_BITS];
      int slot = hash(c, (idx & (CHUNK_STATES - 1)) * width, width) & mask;
      while (bigger[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      bigger[slot] = idx + 1;
    }
    table = bigger;
  }

  private static int hash(long[] a, int off, int len) {
    long h = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < len; i++) {
      h = (h ^ a[off + i]) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 31;
    }
    h *= 0x94D049BB133111EBL;
    return (int) (h ^ (h >>> 32));
  }
}
