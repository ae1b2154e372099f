package dev.interlock.model.check;

import static org.assertj.core.api.Assertions.assertThat;

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
  void minimizationFindsTheFewestThreadsPerRole() {
    Design d = TestDesigns.parse("design roles\nvram 10GiB\n"
        + "role big x3\n  alloc b 6GiB\n  free b\nrole small x3\n  alloc s 3GiB\n  free s\n");
    CheckReport r = check(d);
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.threads()).isEqualTo(Map.of("big", 1, "small", 2));
    assertThat(r.counterexample().orElseThrow().params().threads()).isEqualTo(Map.of("big", 1, "small", 2));
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
