package dev.interlock.model.param;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class AnyCheckerTest {
  private static final Checker.Options OPTIONS = Checker.Options.defaults(2_000_000);
  private static final List<String> GPU = List.of("gpu_worker");

  private static AnyReport check(Design d) {
    return AnyChecker.check(d, GPU, 6, "designs/x.design", OPTIONS, Parameterized.Limits.defaults());
  }

  @ParameterizedTest
  @CsvSource({"single-lock,2", "single-lock-late-release,2", "reservation,2", "single-lock,0", "single-lock-late-release,0",
      "reservation,0"})
  void shippedFixesAreSafeForEveryNumberOfWorkers(String name, int jobs) {
    Design d = TestDesigns.shipped(name).withJobs("gpu_worker", jobs == 0 ? Role.FOREVER : jobs);
    AnyReport r = check(d);
    assertThat(r.verdict()).isEqualTo(new Verdict.Safe());
    assertThat(r.safeForAllN()).containsExactlyElementsOf(Parameterized.UPWARD);
    assertThat(r.boundedConfigs()).isEqualTo(6);
    assertThat(r.report().design().role("gpu_worker").orElseThrow().threads()).isEqualTo(6);
  }

  @Test
  void twoLockIsOomWithTwoWorkersInNineTransitions() {
    AnyReport r = check(TestDesigns.shipped("two-lock"));
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("gpu_worker", 2));
    assertThat(r.report().counterexample().orElseThrow().length()).isEqualTo(9);
    ParamAnswer.Decided d = (ParamAnswer.Decided) r.answer();
    assertThat(d.minimal().get(ViolationKind.OOM)).contains(Map.of("gpu_worker", 2));
    assertThat(r.safeForAllN()).doesNotContain(ViolationKind.OOM).contains(ViolationKind.USE_AFTER_FREE);
  }

  @Test
  void anOomThatNeedsThreeWorkersIsFoundAtThreeAndNotBelow() {
    Design d = TestDesigns.parse("""
        design three
        vram 16GiB
        role w x1 jobs 1
          alloc a 6GiB
          kernel k uses a
          free a
        """);
    AnyReport r = AnyChecker.check(d, List.of("w"), 2, "<test>", OPTIONS, Parameterized.Limits.defaults());
    assertThat(((ParamAnswer.Decided) r.answer()).minimal().get(ViolationKind.OOM)).contains(Map.of("w", 3));
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("w", 3));
    assertThat(r.boundedConfigs()).as("1 and 2 bounded, then 3 from the analysis").isEqualTo(3);
  }

  @Test
  void anOomBeyondTheBoundIsReportedAtItsFewestThreads() {
    Design d = TestDesigns.parse("""
        design nine
        vram 16GiB
        role w x1 jobs 1
          alloc a 2GiB
          kernel k uses a
          free a
        """);
    AnyReport r = AnyChecker.check(d, List.of("w"), 2, "<test>", OPTIONS, Parameterized.Limits.defaults());
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("w", 9));
  }

  @Test
  void twoAnyRolesGiveTheVectorWithTheFewestThreads() {
    Design d = TestDesigns.parse("""
        design pair
        vram 16GiB
        mutex m
        role big x1 jobs 1
          alloc a 10GiB
          kernel k uses a
          free a
        role small x1 jobs 1
          lock m
          alloc b 3GiB
          kernel k uses b
          free b
          unlock m
        """);
    AnyReport r = AnyChecker.check(d, List.of("big", "small"), 3, "<test>", OPTIONS, Parameterized.Limits.defaults());
    // big=2 overflows alone (20 GiB); big=1 with small needs two smalls at once, which the mutex forbids
    assertThat(((ParamAnswer.Decided) r.answer()).minimal().get(ViolationKind.OOM)).contains(Map.of("big", 2, "small", 1));
    assertThat(r.report().threads()).isEqualTo(Map.of("big", 2, "small", 1));
  }

  @Test
  void aFixedRoleKeepsItsCountAndBoundsTheAnswer() {
    Design d = TestDesigns.parse("""
        design fixed
        vram 16GiB
        role big x1 jobs 1
          alloc a 10GiB
          kernel k uses a
          free a
        role small x1 jobs 1
          alloc b 4GiB
          kernel k uses b
          free b
        """);
    AnyReport r = AnyChecker.check(d, List.of("small"), 3, "<test>", OPTIONS, Parameterized.Limits.defaults());
    assertThat(((ParamAnswer.Decided) r.answer()).minimal().get(ViolationKind.OOM)).contains(Map.of("big", 1, "small", 2));
    Design two = d.withThreads("big", 2);
    AnyReport r2 = AnyChecker.check(two, List.of("small"), 3, "<test>", OPTIONS, Parameterized.Limits.defaults());
    assertThat(r2.report().threads()).containsEntry("small", 1);
  }

  @Test
  void syncIsAZeroTestSoTheAnswerIsUnknownNeverSafe() {
    Design d = TestDesigns.parse("""
        design synced
        vram 1024GiB
        role w x1 jobs 1
          alloc a 1GiB
          kernel k uses a
          sync
          free a
        """);
    AnyReport r = AnyChecker.check(d, List.of("w"), 3, "<test>", OPTIONS, Parameterized.Limits.defaults());
    assertThat(r.answer()).isInstanceOf(ParamAnswer.Unknown.class);
    assertThat(r.verdict()).isInstanceOf(Verdict.Unknown.class);
    assertThat(((Verdict.Unknown) r.verdict()).reason()).contains("'sync'").contains("zero test");
    assertThat(r.verdict().exitStatus()).isEqualTo(2);
    assertThat(r.safeForAllN()).isEmpty();
    assertThat(r.boundedUpTo()).as("past 3, within the extension's budget").isGreaterThan(3);
  }

  @Test
  void cuzkPhase11IsOutsideTheFragmentButIsolatedSoItsSwallowedOomShowsWithOneWorkerAndNothingElseForAnyNumber() {
    Design d = TestDesigns.shipped("cuzk/phase11").withJobs("gpu_worker", 1);
    AnyReport r = AnyChecker.check(d, GPU, 2, "designs/cuzk/phase11.design", OPTIONS, Parameterized.Limits.defaults());
    assertThat(r.answer()).isInstanceOf(ParamAnswer.Isolated.class);
    assertThat(((ParamAnswer.Isolated) r.answer()).mutex()).isEqualTo("gpu_mtx");
    assertThat(r.verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("gpu_worker", 1));
    assertThat(r.safeForAllN()).containsExactly(ViolationKind.OOM, ViolationKind.USE_AFTER_FREE, ViolationKind.BAD_FREE,
        ViolationKind.UNLOCK_NOT_HELD, ViolationKind.RELEASE_EXCESS);
  }

  @Test
  void cuzkPhase10IsOutsideBothMethodsSoOnlyTheBoundedSearchAnswersGoingOnPastItsBound() {
    Design d = TestDesigns.shipped("cuzk/phase10").withJobs("gpu_worker", 1);
    AnyReport r = AnyChecker.check(d, GPU, 1, "designs/cuzk/phase10.design", OPTIONS, Parameterized.Limits.defaults());
    String reason = ((ParamAnswer.Unknown) r.answer()).reason();
    assertThat(reason).contains("'sync'").contains("'if free").contains("no mutex isolates device memory");
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("gpu_worker", 2));
    assertThat(r.boundedUpTo()).isEqualTo(2);
  }

  @Test
  void bytesHeldOnlyUnderPermitsAndAMutexAreBoundedSoReservationWithMsmTablesIsSafeForEveryNumber() {
    // 4 permits x 129MiB staged + 32MiB scratch under compute_mtx: at most 548MiB beside 5GiB of tables in 6GiB
    AnyReport r = check(TestDesigns.shipped("reservation-msm-tables"));
    assertThat(r.verdict()).isEqualTo(new Verdict.Safe());
    ParamAnswer.Decided d = (ParamAnswer.Decided) r.answer();
    assertThat(d.basisElements()).as("no element needs fewer live bytes than the bound allows").isZero();
  }

  @Test
  void anUndecidedAnalysisLetsTheBoundedSearchGoOnPastItsBoundAndFindElevenWorkersOom() {
    // the backward search needs minutes for 11 workers of 1.5GiB; given a second, it gives up, and the bounded search
    // goes on past 6 within its budget of states
    Design d = TestDesigns.shipped("many-small");
    AnyReport r = AnyChecker.check(d, List.of("w"), 6, "designs/many-small.design", OPTIONS,
        new Parameterized.Limits(1_000_000, 1_000_000, 200_000, 1));
    assertThat(r.answer()).isInstanceOf(ParamAnswer.Unknown.class);
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("w", 11));
    assertThat(r.boundedUpTo()).isEqualTo(11);
    assertThat(r.boundedConfigs()).isEqualTo(11);
    AnyReport safe = AnyChecker.check(d.withVram(64 * Sizes.GIB), List.of("w"), 6, "<test>", OPTIONS,
        new Parameterized.Limits(1_000_000, 1_000_000, 200_000, 1));
    assertThat(safe.verdict()).isInstanceOf(Verdict.Unknown.class);
    assertThat(safe.boundedUpTo()).as("as far as 1,000,000 states go").isBetween(7, 30);
  }

  @Test
  void aRoleThatLoopsNeverFinishesSoItNeverReleasesItsKeptBuffer() {
    Design d = TestDesigns.parse("""
        design loops
        vram 16GiB
        role w x2 jobs 1
          alloc k 5GiB keep
          kernel x uses k
        """);
    assertThat(AnyChecker.check(d, List.of("w"), 3, "<test>", OPTIONS, Parameterized.Limits.defaults()).report()
        .threads()).isEqualTo(Map.of("w", 4));
    AnyReport looping = AnyChecker.check(d.withJobs("w", Role.FOREVER), List.of("w"), 3, "<test>", OPTIONS,
        Parameterized.Limits.defaults());
    assertThat(looping.report().threads()).isEqualTo(Map.of("w", 4));
  }
}
