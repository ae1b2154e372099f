package dev.interlock.model.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.trace.Outcome;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Breadth-first search: shortest traces, symmetry reduction that changes no answer, limits. */
class ExplorerTest {

  private static Exploration explore(Design d, boolean symmetry) {
    return Explorer.explore(new Model(d), "<test>", new Explorer.Options(10_000_000, symmetry, false, Optional.empty()));
  }

  /** Length of the shortest violating schedule found by trying every schedule up to maxDepth (no hashing). */
  private static int bruteForceShortest(Model m, long[] s, int depth, int maxDepth) {
    if (depth > maxDepth) {
      return Integer.MAX_VALUE;
    }
    if (m.deadlocked(s)) {
      return depth;
    }
    int best = Integer.MAX_VALUE;
    long[] out = new long[s.length];
    for (int t = 0; t < m.threads(); t++) {
      int code = m.step(s, t, out);
      if (Model.violation(code) != null) {
        return depth + 1;
      }
      if (code == Model.MOVED) {
        best = Math.min(best, bruteForceShortest(m, out.clone(), depth + 1, maxDepth));
      }
    }
    return best;
  }

  @Test
  void twoLockCounterexampleIsAShortestOne() {
    Design d = TestDesigns.shipped("two-lock");
    Exploration e = explore(d, true);
    assertThat(e.findings()).hasSize(1);
    assertThat(e.findings().get(0).violation().kind()).isEqualTo(ViolationKind.OOM);
    assertThat(e.findings().get(0).trace().length()).isEqualTo(9);
    Model m = new Model(d);
    assertThat(bruteForceShortest(m, m.initial(), 0, 9)).isEqualTo(9);
  }

  @Test
  void deadlockIsFoundAtTheShortestDepth() {
    Design d = TestDesigns.parse("design ab\nvram 1GiB\nmutex a\nmutex b\n"
        + "role p\n  cpu work\n  lock a\n  lock b\n  unlock b\n  unlock a\n"
        + "role q\n  lock b\n  lock a\n  unlock a\n  unlock b\n");
    Exploration e = explore(d, true);
    assertThat(e.findings().get(0).violation().kind()).isEqualTo(ViolationKind.DEADLOCK);
    Model m = new Model(d);
    assertThat(e.findings().get(0).trace().length()).isEqualTo(bruteForceShortest(m, m.initial(), 0, 8)).isEqualTo(4);
  }

  @ParameterizedTest
  @ValueSource(strings = {"single-lock", "two-lock", "single-lock-late-release", "reservation"})
  void symmetryReductionChangesNoVerdictAndNeverAddsStates(String name) {
    Design d = TestDesigns.shipped(name);
    Exploration with = explore(d, true);
    Exploration without = explore(d, false);
    assertThat(kinds(with)).isEqualTo(kinds(without));
    assertThat(with.findings().stream().map(f -> f.trace().length()).toList())
        .isEqualTo(without.findings().stream().map(f -> f.trace().length()).toList());
    assertThat(with.states()).isLessThanOrEqualTo(without.states());
  }

  @Test
  void symmetryReductionShrinksTheSingleLockStateSpace() {
    Design d = TestDesigns.shipped("single-lock").withThreads("gpu_worker", 4);
    assertThat(explore(d, true).states() * 10).isLessThan(explore(d, false).states());
  }

  private static Set<ViolationKind> kinds(Exploration e) {
    return e.findings().stream().map(f -> f.violation().kind()).collect(Collectors.toSet());
  }

  @Test
  void allViolationsModeReportsTheShortestTraceOfEachKind() {
    Design d = TestDesigns.parse("design many\nvram 4GiB\nmutex m\n"
        + "role a\n  alloc x 3GiB\n  free x\nrole b\n  alloc y 3GiB\n  free y\nrole c\n  unlock m\n");
    Exploration e = Explorer.explore(new Model(d), "<test>", new Explorer.Options(1_000_000, true, true, Optional.empty()));
    assertThat(kinds(e)).containsExactlyInAnyOrder(ViolationKind.OOM, ViolationKind.UNLOCK_NOT_HELD);
    assertThat(e.findings().get(0).violation().kind()).isEqualTo(ViolationKind.UNLOCK_NOT_HELD);
    assertThat(e.findings().get(0).trace().length()).isEqualTo(1);
    assertThat(e.findings().get(1).trace().length()).isEqualTo(2);
  }

  @Test
  void theStateLimitStopsTheSearchAndSaysSo() {
    Design d = TestDesigns.shipped("single-lock");
    Exploration e = Explorer.explore(new Model(d), "<test>", Explorer.Options.firstViolation(100));
    assertThat(e.limitReached()).isTrue();
    assertThat(e.findings()).isEmpty();
    assertThat(e.states()).isLessThanOrEqualTo(100);
  }

  @Test
  void overlapWitnessEndsInTheOverlap() {
    Design d = TestDesigns.shipped("single-lock");
    Exploration e = Explorer.explore(new Model(d), "<test>",
        new Explorer.Options(1_000_000, true, false, Optional.of(new OverlapQuery("b_g2_msm", "ntt_msm"))));
    assertThat(e.witness()).isPresent();
    assertThat(e.witness().get().outcome()).isEqualTo(new Outcome.Overlapped("b_g2_msm", "ntt_msm"));
    assertThat(e.witness().get().steps().get(e.witness().get().length() - 1).step())
        .isInstanceOfSatisfying(Kernel.class, k -> assertThat(k.name()).isEqualTo("ntt_msm"));
  }

  private static Explorer.Options plain(long maxStates) {
    return new Explorer.Options(maxStates, true, true, Optional.empty()).withSearch(false, 1, Long.MAX_VALUE);
  }

  @Test
  void partialOrderReductionDecidesSingleLockAtSixteenWorkersInFewStates() {
    Design d = TestDesigns.shipped("single-lock").withThreads("gpu_worker", 16);
    Exploration e = Explorer.explore(new Model(d), "<test>", plain(1_000_000).withSearch(true, 2, Long.MAX_VALUE));
    assertThat(e.findings()).isEmpty();
    assertThat(e.exhaustive()).isTrue();
    assertThat(e.reduced()).isTrue();
    assertThat(e.states()).isLessThan(10_000);
    Design six = d.withThreads("gpu_worker", 6);
    Exploration without = Explorer.explore(new Model(six), "<test>", plain(1_000_000));
    Exploration with = Explorer.explore(new Model(six), "<test>", plain(1_000_000).withSearch(true, 1, Long.MAX_VALUE));
    assertThat(without.states()).isEqualTo(201_552);
    assertThat(with.states() * 100).isLessThan(without.states());
  }

  @Test
  void aFreeIsNotLocalSoTheReducedSearchStillFindsTheOom() {
    Design d = TestDesigns.parse("design free\nvram 3GiB\nrole w x2 jobs 1\n  alloc b 2GiB\n  free b\n  cpu c\n");
    Exploration e = Explorer.exploreReduced(new Model(d), "<test>", plain(1_000));
    assertThat(kinds(e)).containsExactly(ViolationKind.OOM);
  }

  /**
   * A kernel's end syncs its stream, which can release the pool's cached bytes: b's plain allocation fails only in the
   * order where a's kernel has not ended (a's async free still cached). Taking a's kernel end alone (a reduction that
   * lifted the async restriction for it, measured in issue 36) missed this OOM and answered SAFE.
   */
  @Test
  void aKernelEndAfterAnAsyncFreeIsNotLocalSoTheReducedSearchStillFindsTheOom() {
    Design d = TestDesigns.parse("design kend\nvram 4GiB\nmutex m\nrole a x1 jobs 1\n  lock m\n  alloc x 1GiB async\n"
        + "  free x\n  unlock m\n  kernel k\nrole b x1 jobs 1\n  lock m\n  alloc z 3584MiB\n  free z\n  unlock m\n");
    Exploration plain = Explorer.explore(new Model(d), "<test>", plain(1_000).withSearch(false, 1, Long.MAX_VALUE));
    Exploration reduced = Explorer.exploreReduced(new Model(d), "<test>", plain(1_000));
    assertThat(kinds(plain)).containsExactly(ViolationKind.OOM);
    assertThat(plain.findings().get(0).trace().length()).isEqualTo(6);
    assertThat(kinds(reduced)).containsExactly(ViolationKind.OOM);
  }

  @Test
  void intervalsOfTheOverlapQueryAreVisibleToTheReduction() {
    Design d = TestDesigns.shipped("single-lock").withThreads("gpu_worker", 8);
    Explorer.Options q = new Explorer.Options(1_000_000, true, false, Optional.of(new OverlapQuery("b_g2_msm", "ntt_msm")));
    Exploration reduced = Explorer.exploreReduced(new Model(d), "<test>", q);
    Exploration full = Explorer.explore(new Model(d), "<test>", q);
    Exploration none = Explorer.explore(new Model(d), "<test>", q.withSearch(false, 1, Long.MAX_VALUE));
    assertThat(reduced.witness()).isPresent();
    assertThat(full.witness().orElseThrow().length()).isEqualTo(none.witness().orElseThrow().length());
    assertThat(full.witness().orElseThrow().steps()).isEqualTo(none.witness().orElseThrow().steps());
  }

  /**
   * With async allocations the reduction applies until a step makes the pool choose among streams that cache equally
   * much (there the stream order, which a local step can change, decides): two workers never tie (an alloc's own stream
   * is empty, the other's is the only candidate), three do, and that search is the plain one.
   */
  @Test
  void withAsynchronousAllocationsAPoolTieFallsBackToThePlainSearch() {
    String body = "role w x%d jobs 2\n  cpu c\n  alloc b 1GiB async\n  kernel k uses b\n  free b\n  cpu e\n";
    Design two = TestDesigns.parse("design pool\nvram 8GiB\npool threshold max\n" + body.formatted(2));
    Design three = TestDesigns.parse("design pool\nvram 8GiB\npool threshold max\n" + body.formatted(3));
    Model m3 = new Model(three);
    Exploration reduced3 = Explorer.exploreReduced(m3, "<test>", plain(1_000_000));
    Exploration plain3 = Explorer.explore(m3, "<test>", plain(1_000_000).withSearch(false, 1, Long.MAX_VALUE));
    assertThat(Explorer.explore(new Model(two), "<test>", Explorer.Options.firstViolation(1_000_000)).reduced()).isTrue();
    assertThat(reduced3.reduced()).isFalse();
    assertThat(reduced3.states()).isEqualTo(plain3.states());
    // without the fallback the reduced search runs to the end on the three workers, past the ties
    Exploration unguarded = Explorer.exploreReduced(m3, "<test>", plain(1_000_000),
        new Explorer.Reduction(Model::localStep, false));
    assertThat(unguarded.reduced()).isTrue();
    assertThat(unguarded.states()).isLessThan(plain3.states());
  }

  /**
   * A join that is enabled stays enabled only while no other thread of its frame can spawn the task again: here t1
   * holds m and joins t0 while the role spawns a second t0 that needs m. Taking t1's join alone (the rule without the
   * "sole toucher" condition) misses the deadlock.
   */
  @Test
  void aJoinWhoseTaskAnotherThreadSpawnsAgainIsNotLocal() {
    Design d = TestDesigns.parse("design rejoin\nvram 4GiB\nmutex m\ntask t0\n  lock m\n  cpu c\n  unlock m\n"
        + "task t1\n  lock m\n  signal e\n  join t0\n  unlock m\n"
        + "role a x1 jobs 1\n  spawn t0\n  join t0\n  spawn t1\n  wait e\n  spawn t0\n");
    Model m = new Model(d);
    Explorer.Reduction joinAlwaysLocal = new Explorer.Reduction((model, s, t, v) -> model.localStep(s, t, v)
        || model.nextStep(s, t).filter(Join.class::isInstance).isPresent() && model.step(s, t, new long[model.width()]) == Model.MOVED, true);
    assertThat(kinds(Explorer.explore(m, "<test>", plain(1_000).withSearch(false, 1, Long.MAX_VALUE)))).containsExactly(ViolationKind.DEADLOCK);
    assertThat(kinds(Explorer.exploreReduced(m, "<test>", plain(1_000)))).containsExactly(ViolationKind.DEADLOCK);
    assertThat(kinds(Explorer.exploreReduced(m, "<test>", plain(1_000), joinAlwaysLocal))).isEmpty();
  }

  @Test
  void theMemoryLimitStopsTheSearchAndSaysWhich() {
    Design d = TestDesigns.shipped("single-lock").withThreads("gpu_worker", 5);
    Exploration all = Explorer.explore(new Model(d), "<test>", plain(1_000_000));
    Exploration e = Explorer.explore(new Model(d), "<test>", plain(1_000_000).withSearch(false, 2, all.peakBytes() / 2));
    assertThat(all.limitReached()).isFalse();
    assertThat(e.limitReached()).isTrue();
    assertThat(e.memoryLimit()).isTrue();
    assertThat(e.findings()).isEmpty();
    assertThat(e.states()).isLessThan(all.states());
  }

  @Test
  void twoSearchThreadsFindTheSameCounterexample() {
    System.setProperty(Explorer.PARALLEL_LEVEL_PROPERTY, "1");
    try {
      Design d = TestDesigns.shipped("two-lock").withThreads("gpu_worker", 4);
      Exploration one = Explorer.explore(new Model(d), "<test>", plain(1_000_000));
      Exploration two = Explorer.explore(new Model(d), "<test>", plain(1_000_000).withSearch(true, 2, Long.MAX_VALUE));
      assertThat(two.states()).isEqualTo(one.states());
      assertThat(two.transitions()).isEqualTo(one.transitions());
      assertThat(two.findings()).isEqualTo(one.findings());
    } finally {
      System.clearProperty(Explorer.PARALLEL_LEVEL_PROPERTY);
    }
  }
}
