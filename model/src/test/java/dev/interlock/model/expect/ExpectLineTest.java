package dev.interlock.model.expect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.OverlapAnswer.Reachability;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import java.nio.file.Files;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ExpectLineTest {
  private static final String TWO_LOCK = """
      design two-lock
      vram 16GiB
      mutex mem_mtx
      mutex compute_mtx
      role gpu_worker x2 jobs 2
        cpu b_g2_msm
        lock mem_mtx
        alloc staged 12GiB
        unlock mem_mtx
        lock compute_mtx
        kernel ntt_msm uses staged
        free staged
        unlock compute_mtx
      """;

  private static Design twoLock() {
    return TestDesigns.parse(TWO_LOCK);
  }

  private static DesignException error(String line) {
    return org.assertj.core.api.Assertions.catchThrowableOfType(
        () -> ExpectLine.find("f.design", "design x\n" + line + "\n", twoLock()), DesignException.class);
  }

  @Test
  void readsEveryClauseInAnyOrder() throws DesignException {
    Expectation e = ExpectLine.find("f.design", "# a comment\n  #expect:  OOM length=9 overlap(b_g2_msm,ntt_msm)=REACHABLE"
        + " threads=gpu_worker:2\n" + TWO_LOCK, twoLock()).orElseThrow();
    assertThat(e.verdict()).isEqualTo("OOM");
    assertThat(e.threads()).containsExactly(Map.entry("gpu_worker", 2));
    assertThat(e.length()).hasValue(9);
    assertThat(e.overlap()).contains(new ExpectedOverlap("b_g2_msm", "ntt_msm", Reachability.REACHABLE));
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.text()).isEqualTo("OOM threads=gpu_worker:2 length=9 overlap(b_g2_msm,ntt_msm)=REACHABLE");
  }

  @Test
  void aFileWithoutAnExpectLineIsExpectedSafe() throws DesignException {
    assertThat(ExpectLine.find("f.design", "# expected: OOM (prose, not an expect line)\n" + TWO_LOCK)).isEmpty();
    Expectation e = ExpectLine.expectation("f.design", TWO_LOCK, twoLock());
    assertThat(e.isSafe()).isTrue();
    assertThat(e.written()).isFalse();
  }

  @Test
  void malformedLinesArePositionedErrors() {
    assertThat(error("# expect: OK").getMessage()).isEqualTo("f.design:2:11: unknown verdict 'OK' (SAFE or one of OOM,"
        + " SWALLOWED_OOM, DEADLOCK, LEAK, USE_AFTER_FREE, BAD_FREE, UNLOCK_NOT_HELD, RELEASE_EXCESS)");
    assertThat(error("# expect:").getMessage()).startsWith("f.design:2:10: an expect line needs a verdict");
    assertThat(error("# expect: OOM lenght=9").getMessage()).startsWith("f.design:2:15: unknown clause 'lenght=9'");
    assertThat(error("# expect: OOM length=x").getMessage()).isEqualTo("f.design:2:22: needs a whole number, got 'x'");
    assertThat(error("# expect: OOM length=9 length=9").getMessage()).isEqualTo("f.design:2:24: length= given twice");
    assertThat(error("# expect: OOM threads=gpu_worker=2").getMessage())
        .isEqualTo("f.design:2:23: 'gpu_worker=2' is not ROLE:N (e.g. gpu_worker:2)");
    assertThat(error("# expect: OOM threads=gpu_worker:0").getMessage()).isEqualTo("f.design:2:34: needs at least 1, got 0");
    assertThat(error("# expect: OOM threads=cpu_worker:1").getMessage())
        .isEqualTo("f.design:2:23: no role 'cpu_worker' in design two-lock (roles: gpu_worker)");
    assertThat(error("# expect: SAFE threads=gpu_worker:1").getMessage())
        .isEqualTo("f.design:2:11: threads= names a counterexample's threads; SAFE has no counterexample");
    assertThat(error("# expect: SAFE length=3").getMessage()).startsWith("f.design:2:11: length= needs a violation or a"
        + " REACHABLE overlap");
    assertThat(error("# expect: SAFE overlap(b_g2_msm,ntt_msm)=UNKNOWN").getMessage())
        .isEqualTo("f.design:2:42: an overlap is expected REACHABLE or UNREACHABLE, got 'UNKNOWN'");
    assertThat(error("# expect: SAFE overlap(b_g2_msm,msm)=REACHABLE").getMessage())
        .isEqualTo("f.design:2:33: no interval 'msm' in design two-lock (intervals: b_g2_msm, ntt_msm)");
    assertThat(error("# expect: SAFE overlap(a, b)=REACHABLE").getMessage()).startsWith("f.design:2:16:");
  }

  @Test
  void aSecondExpectLineIsAnError() {
    assertThatThrownBy(() -> ExpectLine.find("f.design", "# expect: SAFE\n\n  # expect: OOM\n"))
        .isInstanceOf(DesignException.class)
        .hasMessage("f.design:3:5: a second expect line (the first is line 1); a design has at most one");
  }

  @Test
  void mismatchesNameEachClauseThatDiffers() throws DesignException {
    DesignExpectations.Result met = DesignExpectations.check("two-lock.design",
        "# expect: OOM threads=gpu_worker:2 length=9 overlap(b_g2_msm,ntt_msm)=REACHABLE\n" + TWO_LOCK,
        UnaryOperator.identity(), Checker.Options.defaults(1_000_000));
    assertThat(met.mismatches()).isEmpty();
    assertThat(met.met()).isTrue();
    assertThat(met.report().overlap()).isPresent();

    DesignExpectations.Result wrong = DesignExpectations.check("two-lock.design",
        "# expect: DEADLOCK threads=gpu_worker:3 length=8 overlap(b_g2_msm,ntt_msm)=UNREACHABLE\n" + TWO_LOCK,
        UnaryOperator.identity(), Checker.Options.defaults(1_000_000));
    assertThat(wrong.mismatches()).containsExactly(
        "expected verdict DEADLOCK, got OOM",
        "expected the counterexample at gpu_worker:3, got gpu_worker:2",
        "expected a counterexample of 8 transitions, got 9",
        "expected overlap(b_g2_msm,ntt_msm) UNREACHABLE, got REACHABLE");

    DesignExpectations.Result safe = DesignExpectations.check("two-lock.design", TWO_LOCK,
        d -> d.withVram(32L << 30), Checker.Options.defaults(1_000_000));
    assertThat(safe.expectation().written()).isFalse();
    assertThat(safe.met()).isTrue();
    assertThat(safe.design().vram()).isEqualTo(32L << 30);
  }

  @Test
  void aLimitNeverMeetsAnExpectation() throws DesignException {
    DesignExpectations.Result r = DesignExpectations.check("two-lock.design", "# expect: SAFE\n" + TWO_LOCK,
        d -> d.withVram(32L << 30), Checker.Options.defaults(5));
    assertThat(r.limited()).isTrue();
    assertThat(r.mismatches()).containsExactly("expected verdict SAFE, got LIMIT (the search stopped before it was exhaustive)");
  }

  @Test
  void everyShippedDesignHasAWellFormedExpectLine() throws Exception {
    try (var files = Files.walk(TestDesigns.root().resolve("designs"))) {
      for (var f : files.filter(p -> p.toString().endsWith(".design")).toList()) {
        String text = Files.readString(f);
        Design d = dev.interlock.model.design.DesignParser.parse(f.toString(), text);
        assertThat(ExpectLine.find(f.toString(), text, d)).as(f.toString()).isPresent();
      }
    }
  }
}
