package dev.interlock.gpu.cuda;

/**
 * How kernels.cu runs a G1 MSM of n points, and the scratch it needs: c-bit signed-digit windows, {@code windows =
 * ceil(256 / c)} so the last carry is always zero, {@code buckets = 2^(c-1)} per window, reduced in {@code
 * segments} segments per window (then summed by {@link #windowThreads()} threads per window).
 *
 * <p>c is one of 4, 8, 13 and 16, whose top window holds 3, 7, 8 and 15 bits of a 255-bit scalar. Other widths leave
 * the top window nearly empty (c = 15: 0 bits, so every carry lands in one bucket, which one thread then sums: an MSM
 * of 2^18 points took 2.3 s at c = 15 against 41 ms for 2^19 at c = 16 on an H200).
 *
 * <p>Buckets are summed in {@link #chunkThreads()} equal chunks of {@link #chunk()} sorted entries (at most 2^19
 * threads), whatever the scalars, and partial sums are combined in rounds of {@value #COMBINE} slots.
 *
 * <p>Scratch, each part aligned to 256 bytes, in this order: entries (windows·n sorted digit entries, 4 bytes each),
 * offsets and cursors (windows·buckets + 1 counters each), scan block sums (1024), buckets (windows·buckets XYZZ points
 * of 192 bytes), segment sums (windows·segments XYZZ points), window sums (windows Jacobian points of 144 bytes), and
 * two slot arrays for the partial sums (keys of 4 bytes, then XYZZ values).
 */
record MsmPlan(int n, int c, int windows, int buckets, int segments) {
  static final int XYZZ_BYTES = 4 * 48;
  static final int JACOBIAN_BYTES = 3 * 48;
  static final int SCAN_BLOCKS = 1024;
  /** Slots per thread in a combining round of partial bucket sums. */
  static final int COMBINE = 32;
  private static final int MAX_CHUNK_THREADS = 1 << 19;

  /** The most points an MSM may have: windows·n sorted entries must stay far below 2^32 (uint32 in the kernels). */
  static final int MAX_POINTS = 1 << 26;

  MsmPlan {
    if (n > MAX_POINTS) {
      throw new IllegalArgumentException("an MSM of " + n + " points is over the kernels' limit of " + MAX_POINTS);
    }
    if (n < 1 || c < 4 || c > 16 || windows * c < 256 || buckets != 1 << (c - 1)
        || segments < 1 || buckets % segments != 0 || Integer.bitCount(segments) != 1) {
      throw new IllegalArgumentException("inconsistent MSM plan: n=" + n + " c=" + c + " windows=" + windows
          + " buckets=" + buckets + " segments=" + segments);
    }
  }

  /** The plan for n points. */
  static MsmPlan of(int n) {
    if (n < 1 || n > MAX_POINTS) {
      throw new IllegalArgumentException("an MSM needs 1 to " + MAX_POINTS + " points, got " + n);
    }
    int log = 31 - Integer.numberOfLeadingZeros(n);
    int c = log >= 17 ? 16 : log >= 12 ? 13 : log >= 7 ? 8 : 4;
    int buckets = 1 << (c - 1);
    return new MsmPlan(n, c, (256 + c - 1) / c, buckets, Math.min(1024, buckets));
  }

  /** Bucket keys (windows·buckets); the offsets array has one more slot for the total. */
  int keys() {
    return windows * buckets;
  }

  long entriesBytes() {
    return (long) windows * n * 4;
  }

  long countersBytes() {
    return ((long) keys() + 1) * 4;
  }

  long offsetsAt() {
    return entriesBytes();
  }

  long cursorsAt() {
    return offsetsAt() + align(countersBytes());
  }

  long sumsAt() {
    return cursorsAt() + align(countersBytes());
  }

  long bucketsAt() {
    return sumsAt() + SCAN_BLOCKS * 4;
  }

  long segmentSumsAt() {
    return bucketsAt() + align((long) keys() * XYZZ_BYTES);
  }

  long windowSumsAt() {
    return segmentSumsAt() + align((long) windows * segments * XYZZ_BYTES);
  }

  /** Sorted entries per accumulating thread: at least 32, more when that would take over 2^19 threads. */
  int chunk() {
    long most = (long) windows * n;
    return (int) Math.max(32, (most + MAX_CHUNK_THREADS - 1) / MAX_CHUNK_THREADS);
  }

  /** Accumulating threads: enough chunks for every digit being non-zero. */
  int chunkThreads() {
    long most = (long) windows * n;
    return (int) ((most + chunk() - 1) / chunk());
  }

  /**
   * Slots of the first array: two per accumulating thread, sized by a bound that never shrinks as n grows (the thread
   * count itself drops when chunks lengthen past 2^20 points), so that an arena sized for the largest n of each window
   * width serves every smaller n.
   */
  int slotsA() {
    long most = (long) windows * n;
    return 2 * (int) Math.min(MAX_CHUNK_THREADS, (most + 31) / 32);
  }

  /** Slots of the second array (two per thread of the first combining round). */
  int slotsB() {
    return 2 * ((slotsA() + COMBINE - 1) / COMBINE);
  }

  long slotKeysAAt() {
    return windowSumsAt() + align((long) windows * JACOBIAN_BYTES);
  }

  long slotValsAAt() {
    return slotKeysAAt() + align(slotsA() * 4L);
  }

  long slotKeysBAt() {
    return slotValsAAt() + align((long) slotsA() * XYZZ_BYTES);
  }

  long slotValsBAt() {
    return slotKeysBAt() + align(slotsB() * 4L);
  }

  /** Threads per window adding the segment sums (a power of two up to 128: the shared-memory tree). */
  int windowThreads() {
    return Math.min(128, segments);
  }

  /** Bytes of scratch this plan uses. */
  long scratchBytes() {
    return slotValsBAt() + (long) slotsB() * XYZZ_BYTES;
  }

  /** The most scratch any MSM of up to {@code maxN} points needs. */
  static long maxScratchBytes(int maxN) {
    long most = 0;
    for (int log = 0; (1L << log) <= maxN; log++) {
      MsmPlan p = of(1 << log);
      // a plan chosen for 2^log serves sizes up to 2^(log+1) - 1 (or maxN), with the same c
      int largest = (int) Math.min(maxN, (2L << log) - 1);
      most = Math.max(most, new MsmPlan(largest, p.c, p.windows, p.buckets, p.segments).scratchBytes());
    }
    return most;
  }

  private static long align(long bytes) {
    return (bytes + 255) & ~255L;
  }
}
