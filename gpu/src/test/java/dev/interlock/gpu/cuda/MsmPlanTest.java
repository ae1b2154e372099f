package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class MsmPlanTest {
  @Test
  void windowsCoverEveryScalarBitWithoutALastCarryAndTheTopWindowIsNotEmpty() {
    for (int log = 0; log <= 26; log++) {
      for (int copies = 1; copies <= MsmPlan.MAX_COPIES; copies++) {
        MsmPlan p = copies == 1 ? MsmPlan.of(1 << log) : MsmPlan.withTable(1 << log, copies);
        assertThat(p.windows() * p.c()).isGreaterThanOrEqualTo(256);
        assertThat((p.windows() - 1) * p.c()).as("the top window holds a scalar bit at 2^%d (c=%d)", log, p.c()).isLessThan(255);
        assertThat(p.sets() * p.copies()).as("every window has a set and a copy").isGreaterThanOrEqualTo(p.windows());
        assertThat((p.sets() - 1) * p.copies()).as("no set is left without a window").isLessThan(p.windows());
        assertThat(p.copies()).isBetween(1, Math.min(copies, p.windows()));
        assertThat(p.buckets() % p.segments()).isZero();
        assertThat(p.tableBytes()).isEqualTo((long) (p.copies() - 1) * p.n() * 96);
        reductionFitsItsScratch(p);
        reductionFitsItsScratch(MsmPlan.g2(1 << log));
      }
    }
  }

  /**
   * The reduction's parts stay in their scratch: msm_reduce_bits writes rows·rowGroups partial sums a set into the
   * group sums, msm_sum_groups's first round writes a sixteenth of them into the segment sums, and msm_reduce_windows
   * gets a power-of-two block (rowGroups, or its sixteenths, down to the window threads).
   */
  private static void reductionFitsItsScratch(MsmPlan p) {
    assertThat(1 << p.bits()).isEqualTo(p.segments());
    assertThat(p.segmentLength() * p.segments()).isEqualTo(p.buckets());
    assertThat(Integer.bitCount(p.rowGroups())).isEqualTo(1);
    assertThat((long) p.rowGroups() * MsmPlan.GROUP).isGreaterThanOrEqualTo(p.segments() / 2);
    long xyzz = p.group().xyzzBytes();
    assertThat(p.windowSumsAt() - p.groupSumsAt()).isGreaterThanOrEqualTo((long) p.windowSumPoints() * p.rowGroups() * xyzz);
    int afterFirstRound = (p.rowGroups() + MsmPlan.GROUP - 1) / MsmPlan.GROUP;
    if (p.rowGroups() > p.group().windowThreads()) {
      assertThat(p.groupSumsAt() - p.segmentSumsAt()).as("a sum-groups round's output over the segment sums")
          .isGreaterThanOrEqualTo((long) p.windowSumPoints() * afterFirstRound * xyzz);
    }
    assertThat(p.slotKeysAAt() - p.windowSumsAt()).isGreaterThanOrEqualTo((long) p.windowSumPoints() * p.group().jacobianBytes());
  }

  @Test
  void theScatterSplitsLargePlansIntoOneKeyRangePerSortPassEntriesDigitsAndCoversEveryKey() {
    long perRange = MsmPlan.SORT_PASS_ENTRIES;
    for (int log = 0; log <= 26; log++) {
      for (MsmPlan p : new MsmPlan[] {MsmPlan.of(1 << log), MsmPlan.withTable(1 << log, MsmPlan.MAX_COPIES)}) {
        long digits = (long) p.windows() * p.n();
        int span = p.scatterKeys();
        int launches = (p.keys() + span - 1) / span;
        long wanted = perRange == 0 ? 1 : Math.max(1, (digits + perRange - 1) / perRange);
        assertThat(span).isBetween(1, p.keys());
        assertThat(launches).as("one launch per %d digits at 2^%d", perRange, log)
            .isEqualTo((int) Math.min(MsmPlan.MAX_SCATTER_LAUNCHES, wanted));
      }
    }
    MsmPlan table = MsmPlan.withTable(1 << 24, MsmPlan.MAX_COPIES);
    int tiny = table.scatterKeys(1);
    assertThat((table.keys() + tiny - 1) / tiny).as("a setting of 1 digit per range: capped").isEqualTo(MsmPlan.MAX_SCATTER_LAUNCHES);
    assertThat(table.scatterKeys(0)).as("0: one launch").isEqualTo(table.keys());
    assumeTrue(perRange == 1L << 25, "the default -Dinterlock.msm.sortPassEntries");
    assertThat(MsmPlan.withTable(1 << 20, MsmPlan.MAX_COPIES).scatterKeys()).as("2^20: one launch")
        .isEqualTo(MsmPlan.withTable(1 << 20, MsmPlan.MAX_COPIES).keys());
    MsmPlan big = MsmPlan.withTable(1 << 24, MsmPlan.MAX_COPIES);
    assertThat((big.keys() + big.scatterKeys() - 1) / big.scatterKeys()).as("2^24 with a table: 12·2^24 digits, 6 launches")
        .isEqualTo(6);
  }

  @Test
  void aTableOfACopyPerWindowLeavesOneBucketSetAndWidensTheWindow() {
    MsmPlan plain = MsmPlan.of(1 << 24);
    MsmPlan table = MsmPlan.withTable(1 << 24, MsmPlan.MAX_COPIES);
    assertThat(table.sets()).isEqualTo(1);
    assertThat(table.copies()).isEqualTo(table.windows());
    assertThat(table.c()).isGreaterThan(16);
    assertThat(table.windows()).as("fewer additions per scalar than without a table").isLessThan(plain.windows());
    assertThat(table.copyShift()).isEqualTo(table.c());
    assertThat(MsmPlan.of(1 << 20, 16, 4)).satisfies(p -> {
      assertThat(p.sets()).isEqualTo(4);
      assertThat(p.copyShift()).isEqualTo(64);
    });
    assertThat(MsmPlan.of(1 << 20, 16, 5).copies()).as("5 copies serve 4 sets no better than 4").isEqualTo(4);
    assertThat(MsmPlan.of(1 << 20)).isEqualTo(MsmPlan.of(1 << 20, 16, 1));
  }

  @Test
  void scratchGrowsWithSizeAndCoversEverySizeUpToTheMaximum() {
    long most = MsmPlan.maxScratchBytes(1 << 20);
    for (int n : new int[] {1, 5, 1000, (1 << 17) - 1, 1 << 17, 999_999, 1 << 20}) {
      assertThat(MsmPlan.of(n).scratchBytes()).isLessThanOrEqualTo(most);
    }
    assertThat(MsmPlan.of(1 << 24).scratchBytes()).isGreaterThan(16L * (1 << 24) * 4);
  }

  @Test
  void anArenaSizedForAMaximumServesEverySmallerMsm() {
    java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
    int[] maxima = {1, 100, 1 << 16, (1 << 20) - 1, 1 << 20, (1 << 20) + 2, 1_146_881, 3_000_000, 1 << 22, (1 << 24) + 2};
    for (int max : maxima) {
      long arena = MsmPlan.maxScratchBytes(max);
      java.util.List<Integer> sizes = new java.util.ArrayList<>(java.util.List.of(1, max, Math.max(1, max - 1), Math.max(1, max / 2)));
      for (int log = 0; (1L << log) <= max; log++) {
        sizes.add(1 << log);
        sizes.add((int) Math.min(max, (2L << log) - 1));
      }
      for (int i = 0; i < 2000; i++) {
        sizes.add(1 + rng.nextInt(max));
      }
      for (int n : sizes) {
        assertThat(MsmPlan.of(n).scratchBytes()).as("MSM of %d points in an arena for %d", n, max).isLessThanOrEqualTo(arena);
        assertThat(MsmPlan.of(n).slotsA()).isGreaterThanOrEqualTo(2 * MsmPlan.of(n).chunkThreads());
        int copies = 2 + rng.nextInt(MsmPlan.MAX_COPIES - 1);
        MsmPlan t = MsmPlan.withTable(n, copies);
        assertThat(t.scratchBytes()).as("MSM of %d points, %d copies, in an arena for %d", n, copies, max).isLessThanOrEqualTo(arena);
        assertThat(t.slotsA()).isGreaterThanOrEqualTo(2 * t.chunkThreads());
      }
    }
  }

  @Test
  void refusesEmptyInconsistentAndOversizedPlans() {
    assertThatThrownBy(() -> MsmPlan.of(MsmPlan.MAX_POINTS + 1)).hasMessageContaining("points");
    assertThatThrownBy(() -> new KernelScratch(20, MsmPlan.MAX_POINTS + 1, 1)).hasMessageContaining("maxMsmPoints");
    assertThatThrownBy(() -> MsmPlan.of(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new MsmPlan(10, 12, 20, 1, 128)).hasMessageContaining("inconsistent");
    assertThatThrownBy(() -> new MsmPlan(10, 16, 16, 5, 1024)).as("5 copies of 16 windows: 4 sets take 4").hasMessageContaining("inconsistent");
    assertThatThrownBy(() -> MsmPlan.withTable(10, 0)).hasMessageContaining("copy");
  }

  @Test
  void g2PlansTakeG1sWindowsWithTwiceThePointBytesAndAnArenaServesThem() {
    for (int log = 0; log <= 24; log++) {
      int n = (1 << log) + (log > 2 ? 3 : 0);
      MsmPlan g1 = MsmPlan.of(n);
      MsmPlan g2 = MsmPlan.g2(n);
      assertThat(g2.group()).isEqualTo(MsmGroup.G2);
      assertThat(g2.c()).isEqualTo(g1.c());
      assertThat(g2.copies()).isEqualTo(1);
      assertThat(g2.bucketsAt()).isEqualTo(g1.bucketsAt()); // the digits and their sort are the group's own business
      assertThat(g2.segmentSumsAt() - g2.bucketsAt()).as("buckets at 2^%d", log)
          .isBetween(2 * (g1.segmentSumsAt() - g1.bucketsAt()) - 256, 2 * (g1.segmentSumsAt() - g1.bucketsAt()));
      assertThat(g2.scratchBytes()).isGreaterThan(g1.with(MsmPlan.Accumulation.XYZZ).scratchBytes());
      assertThat(g2.scratchBytes()).isLessThanOrEqualTo(MsmPlan.maxScratchBytes(n));
    }
    assertThat(MsmGroup.G2.windowThreads()).isEqualTo(128);
    assertThat(MsmGroup.G1.windowThreads()).isEqualTo(256);
    assertThat(MsmGroup.G2.kernel("msm_accumulate")).isEqualTo("msm_accumulate_g2");
    assertThatThrownBy(() -> new MsmPlan(10, 16, 16, 2, 1024, MsmGroup.G2)).hasMessageContaining("only G1 MSMs have a table");
  }

  @Test
  void g1MsmsSquareBySqrSymByDefaultAndOnlyG1HasTheVariants() {
    assertThat(MsmPlan.of((1 << 22) - 1).accumulation()).isEqualTo(MsmPlan.Accumulation.XYZZ_SQR);
    assertThat(MsmPlan.of(1 << 22).accumulation()).isEqualTo(MsmPlan.Accumulation.XYZZ_SQR);
    assertThat(MsmPlan.withTable(1 << 24, MsmPlan.MAX_COPIES).accumulation()).isEqualTo(MsmPlan.Accumulation.XYZZ_SQR);
    assertThat(MsmPlan.withTable(1 << 20, MsmPlan.MAX_COPIES).accumulation()).isEqualTo(MsmPlan.Accumulation.XYZZ_SQR);
    assertThat(MsmPlan.g2(1 << 24).accumulation()).isEqualTo(MsmPlan.Accumulation.XYZZ);
    assertThatThrownBy(() -> MsmPlan.g2(1 << 10).with(MsmPlan.Accumulation.AFFINE)).hasMessageContaining("only G1");
    assertThatThrownBy(() -> MsmPlan.g2(1 << 10).with(MsmPlan.Accumulation.XYZZ_SQR)).hasMessageContaining("only G1");
    MsmPlan p = MsmPlan.of(1 << 20);
    assertThat(p.with(MsmPlan.Accumulation.XYZZ_SQR).scratchBytes()).as("the squaring needs no scratch").isEqualTo(p.scratchBytes());
    assertThat(p.affineBytes()).isZero();
  }

  @Test
  void batchAffineScratchHoldsTheReducedPointsAndTwoTemporariesAfterTheSlots() {
    // 2^24 with a table: c = 22, 12 windows, 2^21 keys; slices of 2^23 entries
    MsmPlan t = MsmPlan.withTable(1 << 24, MsmPlan.MAX_COPIES).with(MsmPlan.Accumulation.AFFINE);
    assertThat(t.keys()).isEqualTo(1 << 21);
    assertThat(t.affineSlice()).isEqualTo(1 << 23);
    assertThat(t.affineSlices()).isEqualTo(24);
    assertThat(t.affinePoints()).isEqualTo((12L << 24 >> MsmPlan.AFFINE_LEVELS) + (1 << 21) + 1);
    assertThat(t.affineTempA()).isEqualTo((1L << 22) + (1 << 21) + 1);
    assertThat(t.affineTempB()).isEqualTo((1L << 21) + (1 << 21) + 1);
    long points = t.affinePoints() + t.affineTempA() + t.affineTempB();
    assertThat(t.affineBytes()).isBetween(points * 96, points * 96 + 512);
    assertThat(t.affineBytes()).isEqualTo(2_415_919_712L); // 2.25 GiB beside the XYZZ plan's 2.6 GiB
    assertThat(t.scratchBytes()).isEqualTo(t.affineTempBAt() + t.affineTempB() * 96);
    assertThat(t.affinePointsAt()).isGreaterThanOrEqualTo(t.slotValsBAt() + (long) t.slotsB() * 192);
    assertThat(t.affineTempAAt()).isGreaterThanOrEqualTo(t.affinePointsAt() + t.affinePoints() * 96);
    assertThat(t.affineTempBAt()).isGreaterThanOrEqualTo(t.affineTempAAt() + t.affineTempA() * 96);
    // msm_accumulate then adds R (gaps included): 2^19 threads of 29 points
    assertThat(t.accumulated()).isEqualTo(t.affinePoints());
    assertThat((long) t.chunk() * t.chunkThreads()).isGreaterThanOrEqualTo(t.affinePoints());
    // 2^20 without a table, asked for: c = 16, 16 windows, 2^19 keys, two slices of 2^23
    MsmPlan m = MsmPlan.of(1 << 20).with(MsmPlan.Accumulation.AFFINE);
    assertThat(m.affineSlices()).isEqualTo(2);
    assertThat(m.affinePositions(1)).isEqualTo((1 << 22) + (1 << 19));
    assertThat(m.affineBytes()).isEqualTo(((1L << 20) + (1 << 19) + 1 + (1 << 22) + (1 << 19) + 1 + (1 << 21) + (1 << 19) + 1) * 96
        + alignPad(m));
    // a small MSM's slice is its entries, rounded up to 2^levels
    MsmPlan small = MsmPlan.of(1000).with(MsmPlan.Accumulation.AFFINE);
    assertThat(small.affineSlice()).isEqualTo(32 * 1000);
    assertThat(small.affineSlices()).isEqualTo(1);
    assertThat(MsmPlan.of(1001).with(MsmPlan.Accumulation.AFFINE).affineSlice() % (1 << MsmPlan.AFFINE_LEVELS)).isZero();
  }

  private static long alignPad(MsmPlan p) {
    return p.affineBytes() - (p.affinePoints() + p.affineTempA() + p.affineTempB()) * 96;
  }

  @Test
  void arenasCoverTheBatchAffinePathWhereItIsTheDefault() {
    long arena24 = MsmPlan.maxScratchBytes(1 << 24);
    assertThat(MsmPlan.withTable(1 << 24, MsmPlan.MAX_COPIES).scratchBytes()).isLessThanOrEqualTo(arena24);
    assertThat(MsmPlan.of(1 << 24).scratchBytes()).isLessThanOrEqualTo(arena24);
    assertThat(MsmPlan.of((1 << 23) + 12_345).scratchBytes()).isLessThanOrEqualTo(arena24);
    assertThat(new KernelScratch(24, 1 << 24, 1).arenaBytes()).isEqualTo(arena24);
    // the arenas are what they were before the batch-affine path: no default plan takes it, so none needs its scratch
    for (int log = 0; log < 24; log++) {
      assertThat(MsmPlan.of((2 << log) - 1).accumulation()).isNotEqualTo(MsmPlan.Accumulation.AFFINE);
      assertThat(MsmPlan.withTable((2 << log) - 1, 7).accumulation()).isNotEqualTo(MsmPlan.Accumulation.AFFINE);
    }
    assertThat(MsmPlan.of(1 << 24).affineBytes()).isZero();
  }
}
