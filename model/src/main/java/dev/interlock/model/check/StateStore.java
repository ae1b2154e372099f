package dev.interlock.model.check;

import java.util.Arrays;

/**
 * The visited set and BFS queue in one: fixed-width packed states ({@link StatePacker}) appended to chunked arrays,
 * indexed by an open-addressing hash table, with the parent of each state for trace reconstruction.
 *
 * <p>States are never removed, so index order is discovery order, which in a breadth-first search is also
 * non-decreasing depth. A state costs {@code 8 * width} bytes (packed) plus about 12 bytes of table and parent.
 * {@link #find} may run on several threads at once while nothing is added (the explorer's expansion phase); adding is
 * single-threaded.
 */
final class StateStore {
  private static final int CHUNK_BITS = 14;
  private static final int CHUNK_STATES = 1 << CHUNK_BITS;

  private final int width;
  private long[][] chunks = new long[16][];
  private int chunksAllocated;
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
    return add(s, 0, hash(s, 0, width), parent);
  }

  /**
   * Adds the state at {@code off} in {@code s}, whose {@link #hash} is {@code h}, with the given parent; its index, or
   * -1 when it is already present.
   */
  int add(long[] s, int off, int h, int parent) {
    if ((size + 1) * 2L > table.length) {
      grow();
    }
    int mask = table.length - 1;
    int slot = h & mask;
    while (true) {
      int e = table[slot];
      if (e == 0) {
        break;
      }
      if (equalsAt(e - 1, s, off)) {
        return -1;
      }
      slot = (slot + 1) & mask;
    }
    // everything is allocated before anything changes: an OutOfMemoryError here leaves the store as it was
    int idx = size;
    int chunk = idx >>> CHUNK_BITS;
    if (chunk == chunks.length) {
      chunks = Arrays.copyOf(chunks, chunks.length * 2);
    }
    if (chunks[chunk] == null) {
      chunks[chunk] = new long[CHUNK_STATES * width];
      chunksAllocated++;
    }
    if (idx == parents.length) {
      parents = Arrays.copyOf(parents, parents.length * 2);
    }
    System.arraycopy(s, off, chunks[chunk], (idx & (CHUNK_STATES - 1)) * width, width);
    parents[idx] = parent;
    size++;
    table[slot] = idx + 1;
    return idx;
  }

  /** The index of s, whose {@link #hash} is {@code h}, or -1; safe on several threads while nothing is added. */
  int find(long[] s, int h) {
    int[] t = table;
    int mask = t.length - 1;
    int slot = h & mask;
    while (true) {
      int e = t[slot];
      if (e == 0) {
        return -1;
      }
      if (equalsAt(e - 1, s, 0)) {
        return e - 1;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Copies state idx into {@code into}. */
  void load(int idx, long[] into) {
    System.arraycopy(chunks[idx >>> CHUNK_BITS], (idx & (CHUNK_STATES - 1)) * width, into, 0, width);
  }

  int parent(int idx) {
    return parents[idx];
  }

  /** Bytes the store's arrays take now: state chunks, parents and hash table. */
  long bytes() {
    return chunksAllocated * (long) CHUNK_STATES * width * 8 + parents.length * 4L + table.length * 4L;
  }

  /** Bytes the store would take after one more state: {@link #bytes} plus whatever that addition allocates. */
  long bytesAfterAdd() {
    long b = bytes();
    if ((size + 1) * 2L > table.length) {
      b += table.length * 4L; // the table doubles
    }
    if ((size >>> CHUNK_BITS) == chunksAllocated) {
      b += (long) CHUNK_STATES * width * 8;
    }
    if (size == parents.length) {
      b += parents.length * 4L;
    }
    return b;
  }

  private boolean equalsAt(int idx, long[] s, int sOff) {
    long[] c = chunks[idx >>> CHUNK_BITS];
    int off = (idx & (CHUNK_STATES - 1)) * width;
    for (int i = 0; i < width; i++) {
      if (c[off + i] != s[sOff + i]) {
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

  /** The hash of the {@code len} words of {@code a} from {@code off}, as the table uses it. */
  static int hash(long[] a, int off, int len) {
    long h = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < len; i++) {
      h = (h ^ a[off + i]) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 31;
    }
    h *= 0x94D049BB133111EBL;
    return (int) (h ^ (h >>> 32));
  }
}
