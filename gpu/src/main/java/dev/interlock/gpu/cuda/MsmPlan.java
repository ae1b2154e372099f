package dev.interlock.gpu.cuda;

/**
 * How kernels.cu runs an MSM of n points in G1 or G2 ({@link #group}; G2's points take twice the bytes, and G2 has no
 * table), and the scratch it needs: c-bit signed-digit windows, {@code windows =
 * ceil(256 / c)} so the last carry is always zero, and {@code copies} copies of the bases (the bases themselves, then
 * a precomputed table of {@code copies - 1} shifted copies: copy j of P is 2^(c·sets·j)·P). Window w = j·sets + k adds
 * copy j into bucket set k, so there are {@code sets = ceil(windows / copies)} sets of {@code buckets = 2^(c-1)}
 * buckets; without a table (copies = 1) each window has its own set. Each set is reduced in {@code segments}
 * segments of {@link #segmentLength()} buckets, each giving its weighted sum A_j and its plain sum S_j; the sum over j
 * of j·S_j is split by the bits of j into {@link #bits()} sums of S_j (kernels.cu, msm_reduce_bits), so each set
 * ends as {@link #rows()} rows of plain sums: a row per bit and two of the A_j. Rows are added in groups of
 * {@value #GROUP} until at most the group's window threads remain, which one block per row adds up
 * ({@link MsmGroup#windowThreads()}), and the host weighs the rows (Kernels.msmResult).
 *
 * <p>c is chosen by a cost model: windows·n mixed additions for the digits, plus about {@value #REDUCTION_COST}
 * additions' worth per bucket for the reduction (two full additions per bucket, each costlier than a mixed one), over
 * the c of 4..{@value #MAX_C}. Without a table, sizes keep the widths that ran before the model (4, 8, 13 and 16 up to
 * 2^23), which the model puts within a few percent of its optimum, and 2^24 up take the model's width.
 *
 * <p>Buckets are summed in equal chunks of the sorted entries, one per thread of a single resident wave (Kernels
 * sizes it from the device: 50,688 threads on an H100 or H200, one block of 384 per SM), each at least
 * {@value #MIN_CHUNK} entries long, so that the entries the scalars actually produce are shared by every thread the device keeps busy; {@link #chunkThreads()} (at
 * most 2^19) bounds the threads and so the slot arrays. Partial sums are combined in rounds of {@value #COMBINE}
 * slots.
 *
 * <p>Scratch, each part aligned to 256 bytes, in this order: entries (windows·n sorted digit entries, 4 bytes each),
 * offsets and cursors (keys + 1 counters each), scan block sums (every level's), buckets (keys XYZZ points of 192 bytes, 384 in G2),
 * segment sums (sets·segments XYZZ points), group sums (sets·rows·{@link #rowGroups()}), window sums (sets·rows
 * Jacobian points of 144 bytes, 288 in G2: {@link #windowSumPoints()}), and two slot arrays for the partial sums
 * (keys of 4 bytes, then XYZZ values). The table is not scratch:
 * it is a buffer of {@link #tableBytes()} that the caller owns.
 *
 * <p>{@link #accumulation} picks how buckets are summed ({@link Accumulation}): the batch-affine path adds, after the
 * slot arrays, its reduced points R ({@link #affinePoints()}) and two temporaries for the pair passes' levels below the
 * last ({@link #affineTempA()}, {@link #affineTempB()} affine points); R's run offsets reuse the cursors.
 */
record MsmPlan(int n, int c, int windows, int copies, int segments, MsmGroup group, Accumulation accumulation) {
  /** How the sorted digit entries are summed into buckets (kernels.cu), selectable so that a benchmark times each. */
  enum Accumulation {
    /** msm_accumulate: one XYZZ mixed addition per entry (8 products and 2 squarings, squared by the product). */
    XYZZ,
    /** msm_accumulate_sqr: the same, squaring with Fp::sqr_sym (G1 only). */
    XYZZ_SQR,
    /**
     * msm_pairs: {@link #AFFINE_LEVELS} passes of independent affine additions, one Fermat inversion per lane's
     * {@link #AFFINE_BATCH} additions (Montgomery's trick, the warp's 32 lanes sharing it), over slices of
     * {@link #AFFINE_SLICE} entries, each halving the buckets' runs; then msm_accumulate_sqr over the reduced points
     * (G1 only). Slower than XYZZ_SQR in the shape measured (gpu/NOTES.md run 47), so never the default.
     */
    AFFINE
  }

  /**
   * The batch-affine shape: {@code -Dinterlock.msm.affine=LEVELS,LOG2_SLICE,BATCH} (default 4,23,16), for a
   * benchmark's variants; every lane's inversion (~570 products in SIMT time) is shared only by its own BATCH
   * additions, so BATCH trades that cost against the lanes a slice keeps busy.
   */
  private static final int[] AFFINE_SHAPE = MsmSettings.affineShape();
  /** Pair passes of the batch-affine path: each bucket's run shrinks 2^levels-fold before the XYZZ accumulation. */
  static final int AFFINE_LEVELS = AFFINE_SHAPE[0];
  /** Entries per slice of the pair passes (a multiple of 2^AFFINE_LEVELS): bounds the temporaries. */
  static final int AFFINE_SLICE = 1 << AFFINE_SHAPE[1];
  /** Additions per lane, sharing the lane's one inversion. */
  static final int AFFINE_BATCH = AFFINE_SHAPE[2];

  /**
   * Slots per thread in a combining round of partial bucket sums: few, so that a round's serial chains stay short and
   * its threads many (32 took 6.4 ms of a 24.6 ms MSM at 2^20 on the H200, gpu/NOTES.md run 34).
   */
  static final int COMBINE = 8;
  /** Partial sums added per thread in a grouping round of the reduction. */
  static final int GROUP = 16;
  /** The most copies of a point (kernels.cu's MSM_MAX_COPIES: msm_table keeps them in one thread). */
  static final int MAX_COPIES = 32;
  /** The widest window: 2^21 buckets of 192 bytes per set. */
  static final int MAX_C = 22;
  /** Additions' worth of reduction per bucket, in the cost model that picks c. */
  static final int REDUCTION_COST = 3;
  private static final int MAX_CHUNK_THREADS = 1 << 19;
  /** The fewest sorted entries an accumulating thread takes (kernels.cu's min_len). */
  static final int MIN_CHUNK = 32;
  private static final int SCAN_BLOCK = 1024;

  /** The most points an MSM may have: windows·n sorted entries must stay far below 2^32 (uint32 in the kernels). */
  static final int MAX_POINTS = 1 << 26;

  MsmPlan {
    java.util.Objects.requireNonNull(group, "group");
    java.util.Objects.requireNonNull(accumulation, "accumulation");
    if (group != MsmGroup.G1 && accumulation != Accumulation.XYZZ) {
      throw new IllegalArgumentException("only G1 MSMs have the " + accumulation + " accumulation, got " + group);
    }
    if (group != MsmGroup.G1 && copies != 1) {
      throw new IllegalArgumentException("only G1 MSMs have a table, got " + copies + " copies in " + group);
    }
    if (n > MAX_POINTS) {
      throw new IllegalArgumentException("an MSM of " + n + " points is over the kernels' limit of " + MAX_POINTS);
    }
    if (n < 1 || c < 4 || c > MAX_C || windows != (256 + c - 1) / c || copies < 1 || copies > Math.min(windows, MAX_COPIES)
        || copies != ceilDiv(windows, ceilDiv(windows, copies)) || (long) windows * n >= 1L << 31
        || segments < 2 || (1 << (c - 1)) % segments != 0 || Integer.bitCount(segments) != 1) {
      throw new IllegalArgumentException("inconsistent MSM plan: n=" + n + " c=" + c + " windows=" + windows
          + " copies=" + copies + " segments=" + segments);
    }
  }

  /** A plan with the plain XYZZ accumulation (G2's only one; G1 plans from {@link #of} take the default). */
  MsmPlan(int n, int c, int windows, int copies, int segments, MsmGroup group) {
    this(n, c, windows, copies, segments, group, Accumulation.XYZZ);
  }

  /** A G1 plan with the plain XYZZ accumulation. */
  MsmPlan(int n, int c, int windows, int copies, int segments) {
    this(n, c, windows, copies, segments, MsmGroup.G1);
  }

  /** This plan with another accumulation (a benchmark's variant). */
  MsmPlan with(Accumulation a) {
    return new MsmPlan(n, c, windows, copies, segments, group, a);
  }

  /**
   * The accumulation a G1 MSM of n points takes unless asked otherwise: XYZZ with Fp::sqr_sym, 1-2% faster than plain
   * XYZZ at every size measured and 6% on 0/1 scalars (gpu/NOTES.md run 47; batch-affine was 3.5x slower there).
   * {@code -Dinterlock.msm.accumulation=xyzz|xyzz_sqr|affine} forces one at every size.
   */
  static Accumulation defaultAccumulation(int n) {
    return MsmSettings.forcedAccumulation().orElse(Accumulation.XYZZ_SQR);
  }

  /** The G2 plan for n points: G1's window widths (the bucket and digit work scale alike), no table. */
  static MsmPlan g2(int n) {
    MsmPlan p = of(n);
    return new MsmPlan(n, p.c, p.windows, 1, p.segments, MsmGroup.G2);
  }

  /** The G1 plan for n points without a table. */
  static MsmPlan of(int n) {
    requireSize(n);
    int log = 31 - Integer.numberOfLeadingZeros(n);
    int c = log >= 24 ? cheapest(1 << log, 1) : log >= 17 ? 16 : log >= 12 ? 13 : log >= 7 ? 8 : 4;
    return of(n, c, 1);
  }

  /**
   * The plan for n points with a table of up to {@code copies} copies of each base (fewer when fewer serve the same
   * number of bucket sets), c chosen by the cost model for n rounded down to a power of two.
   */
  static MsmPlan withTable(int n, int copies) {
    requireSize(n);
    if (copies < 1) {
      throw new IllegalArgumentException("an MSM table needs at least one copy, got " + copies);
    }
    return of(n, cheapest(Integer.highestOneBit(n), copies), copies);
  }

  /** The plan for n points with c-bit windows and up to {@code copies} copies (copies of 1: no table). */
  static MsmPlan of(int n, int c, int copies) {
    requireSize(n);
    int windows = (256 + c - 1) / c;
    int sets = ceilDiv(windows, Math.min(Math.min(copies, windows), MAX_COPIES));
    int buckets = 1 << (c - 1);
    return new MsmPlan(n, c, windows, ceilDiv(windows, sets), Math.min(buckets, Math.max(1024, buckets / 32)), MsmGroup.G1,
        defaultAccumulation(n));
  }

  /**
   * The plan's digits (windows·n) per key range of the scatter ({@code -Dinterlock.msm.sortPassEntries}, default 2^25;
   * 0: one launch), on average for uniform scalars: see {@link #scatterKeys()}.
   */
  static final long SORT_PASS_ENTRIES = MsmSettings.sortPassEntries();
  /** The most launches the scatter is split into, whatever the setting: each one computes every digit again. */
  static final int MAX_SCATTER_LAUNCHES = 64;

  /**
   * Keys each launch of the scatter (kernels.cu, msm_scatter) takes: the keys split evenly over ceil(windows·n /
   * {@link #SORT_PASS_ENTRIES}) launches (at most {@link #MAX_SCATTER_LAUNCHES}), so that the part-written sectors of one
   * launch's buckets stay in L2; every key at once for smaller plans (or with the setting at 0). Each launch computes
   * every digit again and writes those of its keys (about 0.65-0.8 ms of digit work at 2^24 on an H100), so the split
   * pays only for large plans (gpu/NOTES.md runs 57-58).
   */
  int scatterKeys() {
    return scatterKeys(SORT_PASS_ENTRIES);
  }

  /** {@link #scatterKeys()} for perRange digits per key range (0: one launch). */
  int scatterKeys(long perRange) {
    long digits = (long) windows * n;
    if (perRange == 0 || digits <= perRange) {
      return keys();
    }
    long passes = Math.min(MAX_SCATTER_LAUNCHES, (digits + perRange - 1) / perRange);
    return (int) ((keys() + passes - 1) / passes);
  }

  private static void requireSize(int n) {
    if (n < 1 || n > MAX_POINTS) {
      throw new IllegalArgumentException("an MSM needs 1 to " + MAX_POINTS + " points, got " + n);
    }
  }

  /** The c of least modelled cost for n points and up to {@code copies} copies (the smaller c on a tie). */
  private static int cheapest(int n, int copies) {
    int best = 4;
    long bestCost = Long.MAX_VALUE;
    for (int c = 4; c <= MAX_C; c++) {
      int windows = (256 + c - 1) / c;
      if ((long) windows * n >= 1L << 31 || (windows - 1) * c >= 255) {
        continue; // too many entries, or a top window above every scalar bit (it would only take carries)
      }
      int sets = ceilDiv(windows, Math.min(Math.min(copies, windows), MAX_COPIES));
      long cost = (long) windows * n + (long) REDUCTION_COST * sets * (1L << (c - 1));
      if (cost < bestCost) {
        best = c;
        bestCost = cost;
      }
    }
    return best;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  /** Bucket sets: windows sharing a set use different copies of the bases. */
  int sets() {
    return ceilDiv(windows, copies);
  }

  /** Buckets per set. */
  int buckets() {
    return 1 << (c - 1);
  }

  /** Bucket keys (sets·buckets); the offsets array has one more slot for the total. */
  int keys() {
    return sets() * buckets();
  }

  /** Buckets per segment of the reduction (a power of two). */
  int segmentLength() {
    return buckets() / segments;
  }

  /** Bits of a segment's index: the rows of masked segment sums per set. */
  int bits() {
    return Integer.numberOfTrailingZeros(segments);
  }

  /** Rows of plain sums each set's reduction ends in: one per bit, two of the segments' weighted sums. */
  int rows() {
    return bits() + 2;
  }

  /** Partial sums per row after msm_reduce_bits: ceil(segments / 2 / GROUP), a power of two. */
  int rowGroups() {
    return ceilDiv(segments / 2, GROUP);
  }

  /** Jacobian points the reduction leaves at {@link #windowSumsAt()}: rows() per set, set by set. */
  int windowSumPoints() {
    return sets() * rows();
  }

  /** Doublings between one copy of a base and the next: c bits for each set. */
  int copyShift() {
    return c * sets();
  }

  /** Bytes of the precomputed table (copies 1 .. copies-1 of n affine points), 0 without one. */
  long tableBytes() {
    return (long) (copies - 1) * n * group.affineBytes();
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

  /** Block sums of every level of the multi-level scan of keys + 1 counters. */
  int scanSums() {
    int total = 0;
    for (int len = keys() + 1; len > SCAN_BLOCK; len = ceilDiv(len, SCAN_BLOCK)) {
      total += ceilDiv(len, SCAN_BLOCK);
    }
    return total;
  }

  long bucketsAt() {
    return sumsAt() + align(Math.max(1, scanSums()) * 4L);
  }

  long segmentSumsAt() {
    return bucketsAt() + align((long) keys() * group.xyzzBytes());
  }

  long groupSumsAt() {
    return segmentSumsAt() + align((long) sets() * segments * group.xyzzBytes());
  }

  long windowSumsAt() {
    return groupSumsAt() + align((long) windowSumPoints() * rowGroups() * group.xyzzBytes());
  }

  /**
   * The most points msm_accumulate adds: a digit entry each (windows·n), or on the batch-affine path the reduced points
   * R, gaps included.
   */
  long accumulated() {
    return accumulation == Accumulation.AFFINE ? affinePoints() : (long) windows * n;
  }

  /**
   * Sorted entries per thread when {@link #chunkThreads()} threads share the most entries there can be: at least
   * {@value #MIN_CHUNK}, more when that would take over 2^19 threads.
   */
  int chunk() {
    long most = accumulated();
    return (int) Math.max(MIN_CHUNK, (most + MAX_CHUNK_THREADS - 1) / MAX_CHUNK_THREADS);
  }

  /** The most accumulating threads: enough chunks of {@link #chunk()} for every digit being non-zero. */
  int chunkThreads() {
    long most = accumulated();
    return (int) ((most + chunk() - 1) / chunk());
  }

  /** Entries per slice of the pair passes: {@value #AFFINE_SLICE}, or all of them rounded up to 2^levels when fewer. */
  int affineSlice() {
    long most = (long) windows * n;
    long rounded = (most + (1 << AFFINE_LEVELS) - 1) >> AFFINE_LEVELS << AFFINE_LEVELS;
    return (int) Math.min(AFFINE_SLICE, rounded);
  }

  /** Slices of the pair passes (the last may hold fewer entries, or none when zero digits shortened the entries). */
  int affineSlices() {
    return (int) (((long) windows * n + affineSlice() - 1) / affineSlice());
  }

  /** Output slots of pair pass `level` of a slice: (slice >> level) + keys (kernels.cu: one gap slot per key at most). */
  int affinePositions(int level) {
    return (affineSlice() >> level) + keys();
  }

  /** Points of R, the last level of every slice: (windows·n >> levels) + keys + 1. */
  long affinePoints() {
    return ((long) windows * n >> AFFINE_LEVELS) + keys() + 1;
  }

  /** Points of the temporary of odd levels below the last (level 1 is the largest). */
  long affineTempA() {
    return (long) (affineSlice() >> 1) + keys() + 1;
  }

  /** Points of the temporary of even levels below the last. */
  long affineTempB() {
    return (long) (affineSlice() >> 2) + keys() + 1;
  }

  /**
   * Slots of the first array: two per accumulating thread, sized by a bound that never shrinks as n grows (the thread
   * count itself drops when chunks lengthen past 2^20 points), so that an arena sized for the largest n of each window
   * width serves every smaller n.
   */
  int slotsA() {
    long most = accumulated();
    return 2 * (int) Math.min(MAX_CHUNK_THREADS, (most + 31) / 32);
  }

  /** Slots of the second array (two per thread of the first combining round). */
  int slotsB() {
    return 2 * ((slotsA() + COMBINE - 1) / COMBINE);
  }

  long slotKeysAAt() {
    return windowSumsAt() + align((long) windowSumPoints() * group.jacobianBytes());
  }

  long slotValsAAt() {
    return slotKeysAAt() + align(slotsA() * 4L);
  }

  long slotKeysBAt() {
    return slotValsAAt() + align((long) slotsA() * group.xyzzBytes());
  }

  long slotValsBAt() {
    return slotKeysBAt() + align(slotsB() * 4L);
  }

  /** Where R, the batch-affine path's reduced points, begins (after the slot arrays). */
  long affinePointsAt() {
    return slotValsBAt() + align((long) slotsB() * group.xyzzBytes());
  }

  long affineTempAAt() {
    return affinePointsAt() + align(affinePoints() * group.affineBytes());
  }

  long affineTempBAt() {
    return affineTempAAt() + align(affineTempA() * group.affineBytes());
  }

  /** Bytes of the batch-affine path's own scratch (R and the two temporaries), 0 on the other paths. */
  long affineBytes() {
    return accumulation != Accumulation.AFFINE ? 0
        : affineTempBAt() + affineTempB() * group.affineBytes() - affinePointsAt();
  }

  /** Bytes of scratch this plan uses. */
  long scratchBytes() {
    if (accumulation == Accumulation.AFFINE) {
      return affineTempBAt() + affineTempB() * group.affineBytes();
    }
    return slotValsBAt() + (long) slotsB() * group.xyzzBytes();
  }

  /**
   * The most scratch any MSM of up to {@code maxN} points needs: in G1 with or without a table of any number of copies,
   * and in G2.
   */
  static long maxScratchBytes(int maxN) {
    long most = 0;
    for (int log = 0; (1L << log) <= maxN; log++) {
      // a plan chosen for 2^log serves sizes up to 2^(log+1) - 1 (or maxN), with the same c
      int largest = (int) Math.min(maxN, (2L << log) - 1);
      most = Math.max(most, same(of(1 << log), largest).scratchBytes());
      most = Math.max(most, same(g2(1 << log), largest).scratchBytes());
      for (int copies = 2; copies <= MAX_COPIES; copies++) {
        most = Math.max(most, same(withTable(1 << log, copies), largest).scratchBytes());
      }
    }
    return most;
  }

  /** This plan's widths and accumulation for m points. */
  private static MsmPlan same(MsmPlan p, int m) {
    return new MsmPlan(m, p.c, p.windows, p.copies, p.segments, p.group, p.accumulation);
  }

  private static long align(long bytes) {
    return (bytes + 255) & ~255L;
  }
}
