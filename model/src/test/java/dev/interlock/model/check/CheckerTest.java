package dev.interlock.model.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.TraceStep;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The acceptance facts of the shipped designs, and counterexample minimization. */
class CheckerTest {
  private static final Checker.Options OPTS = Checker.Options.defaults(10_000_000);

  private static CheckReport check(Design d) {
    return Checker.check(d, "<test>", OPTS);
  }

  private static CheckReport overlap(Design d, String a, String b) {
    return Checker.check(d, "<test>", OPTS.withOverlap(new OverlapQuery(a, b)));
  }

  @Test
  void twoLockRunsOutOfMemoryWithTwoWorkersInNineTransitions() {
    CheckReport r = check(TestDesigns.shipped("two-lock"));
    assertThat(r.verdict()).isInstanceOf(Verdict.Unsafe.class);
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 2));
    List<TraceStep> steps = r.counterexample().orElseThrow().steps();
    assertThat(steps).hasSize(9);
    TraceStep last = steps.get(8);
    assertThat(last.step().text()).isEqualTo("alloc staged 12GiB");
    // the failing worker is not the one whose staged buffer is live
    assertThat(steps.stream().filter(s -> s.step().text().equals("alloc staged 12GiB")).map(TraceStep::thread).distinct()).hasSize(2);
    assertThat(last.used()).isEqualTo(12 * Sizes.GIB);
    assertThat(r.smallerConfigs()).as("1 worker (SAFE), then 2 (OOM)").isEqualTo(2);
  }

  @Test
  void singleLockIsSafeWithThreeAndSixWorkers() {
    Design d = TestDesigns.shipped("single-lock");
    assertThat(check(d).verdict()).isEqualTo(new Verdict.Safe());
    CheckReport six = check(d.withThreads("gpu_worker", 6));
    assertThat(six.verdict()).isEqualTo(new Verdict.Safe());
    assertThat(six.threads()).isEqualTo(Map.of("gpu_worker", 6));
  }

  @Test
  void singleLockOverlapsBG2MsmWithKernelsButLateReleaseDoesNot() {
    CheckReport early = overlap(TestDesigns.shipped("single-lock"), "b_g2_msm", "ntt_msm");
    assertThat(early.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.REACHABLE);
    CheckReport late = overlap(TestDesigns.shipped("single-lock-late-release"), "b_g2_msm", "ntt_msm");
    assertThat(late.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.UNREACHABLE);
    assertThat(late.verdict()).isEqualTo(new Verdict.Safe());
  }

  @Test
  void reservationIsSafeAndOverlapsStagingOnlyWhenTwoReservationsFit() {
    Design d = TestDesigns.shipped("reservation");
    CheckReport small = overlap(d, "h2d", "ntt_msm");
    assertThat(small.verdict()).isEqualTo(new Verdict.Safe());
    assertThat(small.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.UNREACHABLE);
    Design big = d.withVram(32 * Sizes.GIB).withPermits("vram_units", 32);
    CheckReport large = overlap(big, "h2d", "ntt_msm");
    assertThat(large.verdict()).isEqualTo(new Verdict.Safe());
    assertThat(large.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.REACHABLE);
  }

  @Test
  void reservationWithASemaphoreLargerThanTheCardRunsOutOfMemory() {
    Design d = TestDesigns.shipped("reservation").withPermits("vram_units", 32);
    CheckReport r = check(d);
    assertThat(r.verdict().label()).isEqualTo(ViolationKind.OOM.name());
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 2));
  }

  @Test
  void minimizationFindsTheFewestThreadsThenTheFewestTransitions() {
    Design d = TestDesigns.parse("design roles\nvram 10GiB\n"
        + "role big x3\n  alloc b 6GiB\n  free b\nrole small x3\n  alloc s 3GiB\n  free s\n");
    CheckReport r = check(d);
    assertThat(r.verdict().label()).isEqualTo("OOM");
    // 3 threads either way; two big ones fail in 2 transitions, one big and two small ones need 3
    assertThat(r.threads()).isEqualTo(Map.of("big", 2, "small", 1));
    assertThat(r.counterexample().orElseThrow().params().threads()).isEqualTo(Map.of("big", 2, "small", 1));
    assertThat(r.counterexample().orElseThrow().length()).isEqualTo(2);
  }

  /** RELEASE_EXCESS with 1 thread in 3 transitions; OOM needs all 3 threads, also in 3, and is first in kind order. */
  private static final String RULE = "design rule\nvram 10GiB\nsemaphore sem 1\nrole w x3\n  alloc a 4GiB\n  trim\n  release sem 1\n";

  @Test
  void thePrimaryCounterexampleHasTheFewestThreadsOfAnyKindAndTheOthersAreListed() {
    CheckReport r = check(TestDesigns.parse(RULE));
    assertThat(r.verdict().label()).isEqualTo("RELEASE_EXCESS");
    assertThat(r.threads()).isEqualTo(Map.of("w", 1));
    assertThat(r.counterexample().orElseThrow().length()).isEqualTo(3);
    assertThat(r.others()).hasSize(1);
    Counterexample oom = r.others().get(0);
    assertThat(oom.violation().kind()).isEqualTo(ViolationKind.OOM);
    assertThat(oom.threads()).isEqualTo(Map.of("w", 3));
    assertThat(oom.length()).isEqualTo(3);
    assertThat(r.stoppedSearches()).isZero();
  }

  @Test
  void withoutMinimizationTheKindsAreRankedAtTheCheckedCounts() {
    CheckReport r = Checker.check(TestDesigns.parse(RULE), "<test>", new Checker.Options(1_000_000, java.util.Optional.empty(), false, true));
    assertThat(r.verdict().label()).as("same threads and length: kind order decides").isEqualTo("OOM");
    assertThat(r.threads()).isEqualTo(Map.of("w", 3));
    assertThat(r.smallerConfigs()).isZero();
    assertThat(r.others()).extracting(c -> c.violation().kind(), Counterexample::threads, Counterexample::length)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(ViolationKind.RELEASE_EXCESS, Map.of("w", 3), 3));
  }

  /** RELEASE_EXCESS with 1 thread in 9 transitions; OOM needs both threads and 14 transitions. */
  private static final String DEEP = "design deep\nvram 10GiB\nsemaphore sem 1\nrole w x2\n"
      + "  cpu c1\n  cpu c2\n  cpu c3\n  alloc a 6GiB\n  free a\n  release sem 1\n";

  @Test
  void theCheckedCountsAreSearchedOnlyAsDeepAsThePrimaryNeedsUnlessAllViolationsAreAsked() {
    CheckReport quick = check(TestDesigns.parse(DEEP));
    assertThat(quick.verdict().label()).isEqualTo("RELEASE_EXCESS");
    assertThat(quick.counterexample().orElseThrow().length()).isEqualTo(9);
    assertThat(quick.search().exhaustive()).isFalse();
    assertThat(quick.others()).isEmpty();
    CheckReport all = Checker.check(TestDesigns.parse(DEEP), "<test>", OPTS.withAllViolations());
    assertThat(all.verdict()).isEqualTo(quick.verdict());
    assertThat(all.counterexample()).isEqualTo(quick.counterexample());
    assertThat(all.search().exhaustive()).isTrue();
    assertThat(all.others()).extracting(c -> c.violation().kind(), Counterexample::threads, Counterexample::length)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(ViolationKind.OOM, Map.of("w", 2), 14));
  }

  /** OOM with both threads in 2 transitions, first at the checked counts; RELEASE_EXCESS with 1 thread in 9. */
  private static final String LATE = "design late\nvram 10GiB\nsemaphore sem 1\nrole w x2\n"
      + "  alloc a 6GiB\n  cpu c1\n  cpu c2\n  cpu c3\n  free a\n  release sem 1\n";

  @Test
  void aKindOfFewerThreadsIsFoundAtTheCheckedCountsEvenWhenTheirFirstViolationIsAnother() {
    CheckReport r = check(TestDesigns.parse(LATE));
    assertThat(r.verdict().label()).isEqualTo("RELEASE_EXCESS");
    assertThat(r.threads()).isEqualTo(Map.of("w", 1));
    assertThat(r.counterexample().orElseThrow().length()).isEqualTo(9);
    assertThat(r.others()).extracting(c -> c.violation().kind(), Counterexample::threads, Counterexample::length)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(ViolationKind.OOM, Map.of("w", 2), 2));
  }

  @Test
  void aSafeDesignCostsOneSearch() {
    CheckReport r = check(TestDesigns.shipped("single-lock"));
    assertThat(r.verdict()).isEqualTo(new Verdict.Safe());
    assertThat(Checker.smallerCounts(r.design())).isNotEmpty();
    assertThat(r.smallerConfigs()).as("fewer threads cannot change a SAFE verdict").isZero();
    assertThat(r.search().exhaustive()).isTrue();
  }

  @Test
  void aStateLimitThatStopsASearchIsReported() {
    // 35 states: the checked counts (44 states in all) show RELEASE_EXCESS, but the limit stops them before OOM
    CheckReport r = Checker.check(TestDesigns.parse(DEEP), "<test>", Checker.Options.defaults(35).withAllViolations());
    assertThat(r.verdict().label()).isEqualTo("RELEASE_EXCESS");
    assertThat(r.others()).isEmpty();
    assertThat(r.stoppedSearches()).isEqualTo(1);
    assertThat(r.search().limitReached()).isTrue();
    assertThat(r.search().exhaustive()).isFalse();
  }

  @Test
  void reportsRejectAKindTwice() {
    CheckReport r = check(TestDesigns.parse(RULE));
    Counterexample primary = r.violations().get(0);
    assertThatThrownBy(() -> new CheckReport(r.design(), r.verdict(), r.primary(), r.overlap(),
        r.search(), r.smallerConfigs(), r.minimizeSeconds(), List.of(primary), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("twice");
    assertThatThrownBy(() -> new CheckReport(r.design(), new Verdict.Safe(), r.primary(), r.overlap(),
        r.search(), r.smallerConfigs(), r.minimizeSeconds(), List.of(), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be the primary");
    assertThat(primary.threads()).isEqualTo(primary.trace().params().threads());
  }

  @Test
  void smallerCountsComeFewestThreadsFirstAndExcludeTheChecked() {
    Design d = TestDesigns.parse("design c\nvram 1GiB\nrole a x2\n  cpu x\nrole b x2\n  cpu y\n");
    assertThat(Checker.smallerCounts(d).stream().map(Arrays::toString)).containsExactly("[1, 1]", "[1, 2]", "[2, 1]");
  }

  @Test
  void aLimitedSearchIsNeverSafe() {
    CheckReport r = Checker.check(TestDesigns.shipped("single-lock"), "<test>", Checker.Options.defaults(50));
    assertThat(r.verdict()).isEqualTo(new Verdict.LimitReached(50));
    assertThat(r.verdict().exitStatus()).isEqualTo(2);
  }
}
