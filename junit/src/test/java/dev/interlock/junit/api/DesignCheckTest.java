package dev.interlock.junit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DesignCheckTest {
  @Test
  void aCheckAnswersTheVerdictTheMinimalThreadsAndTheCounterexample() {
    CheckResult r = Interlock.check(Designs.TWO_LOCK).threads("gpu_worker", 3).run();
    assertThat(r.verdict()).isEqualTo("OOM");
    assertThat(r.isSafe()).isFalse();
    assertThat(r.violation()).contains(Violation.OOM);
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 2));
    assertThat(r.length()).isEqualTo(9);
    assertThat(r.counterexample().orElseThrow()).startsWith("# interlock trace v2\ndesign   two-lock\nsource   <string>\n")
        .contains("alloc staged 12GiB");
    assertThat(r.overlap()).isEmpty();
    assertThat(r.witness()).isEmpty();
    assertThat(r.statesSearched()).isPositive();
    assertThat(r.source()).isEqualTo("<string>");
    assertThat(r.design()).isEqualTo("two-lock");
    assertThat(r.report()).contains("verdict   OOM", "minimal   gpu_worker=2", "counterexample (9 transitions",
        r.counterexample().orElseThrow());
  }

  @Test
  void theBuilderIsImmutableAndItsParametersChangeTheAnswer() {
    DesignCheck base = Interlock.check(Designs.TWO_LOCK);
    DesignCheck bigger = base.vram("32GiB");
    assertThat(bigger.run().isSafe()).isTrue();
    assertThat(base.run().verdict()).isEqualTo("OOM");
    assertThat(base.vram(32L << 30).run().isSafe()).isTrue();
    assertThat(base.threads("gpu_worker", 1).run().isSafe()).isTrue();
    assertThat(base.jobs("gpu_worker", 1).run().verdict()).isEqualTo("OOM");
  }

  @Test
  void theOverlapQueryIsAnsweredWithAWitness() {
    CheckResult r = Interlock.check(Designs.TWO_LOCK).vram("32GiB").overlap("b_g2_msm", "ntt_msm").run();
    assertThat(r.isSafe()).isTrue();
    assertThat(r.overlap()).contains(new Overlap("b_g2_msm", "ntt_msm", Overlap.Reachability.REACHABLE));
    assertThat(r.witness()).isPresent();
    assertThat(r.length()).isPositive();
    assertThat(r.report()).contains("overlap   b_g2_msm ntt_msm: REACHABLE", "witness of the overlap");
  }

  @Test
  void theStateLimitAnswersLimitNeverSafe() {
    CheckResult r = Interlock.check(Designs.TWO_LOCK).vram("32GiB").maxStates(5).run();
    assertThat(r.verdict()).isEqualTo("LIMIT");
    assertThat(r.isSafe()).isFalse();
    assertThat(r.report()).contains("NOT a proof of safety");
  }

  @Test
  void anyNumberOfThreadsFindsTheFewestThatViolate() {
    CheckResult r = Interlock.check(Designs.TWO_LOCK).threadsAny("gpu_worker").run();
    assertThat(r.violation()).contains(Violation.OOM);
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 2));
    assertThat(r.report()).contains("threads of gpu_worker: any");
  }

  @Test
  void badInputIsAnIllegalArgumentWithThePositionedError() {
    DesignCheck c = Interlock.check(Designs.TWO_LOCK);
    assertThatThrownBy(() -> c.threads("cpu_worker", 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("<string>: threads: no role 'cpu_worker' in design two-lock (roles: gpu_worker)");
    assertThatThrownBy(() -> c.vram("16 GiB")).hasMessageStartingWith("<string>: vram: bad size '16 GiB'");
    assertThatThrownBy(() -> c.threads("gpu_worker", 0)).hasMessage("<string>: threads gpu_worker: needs at least 1, got 0");
    assertThatThrownBy(() -> c.permits("vram_units", 1)).hasMessageStartingWith("<string>: permits: no semaphore 'vram_units'");
    assertThatThrownBy(() -> c.overlap("b_g2_msm", "msm")).hasMessageStartingWith("<string>: overlap: no interval 'msm'");
    assertThatThrownBy(() -> c.maxStates(0)).hasMessage("<string>: maxStates: must be positive, got 0");
    assertThatThrownBy(() -> c.threadsAny("gpu_worker").overlap("b_g2_msm", "ntt_msm"))
        .hasMessageStartingWith("<string>: overlap: an overlap query needs numbers of threads, not any");
    assertThatThrownBy(() -> Interlock.check("design x\nvram 16GiB\nrole w x1 jobs 1\n  alloc a 1GiB\n  frees a\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("<string>:5:3: ");
  }

  @Test
  void aFileIsNamedAsGivenInErrorsAndTraces(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("x.design");
    Files.writeString(f, Designs.TWO_LOCK);
    assertThat(Interlock.check(f).run().counterexample().orElseThrow()).contains("source   " + f + "\n");
    Files.writeString(f, "design x\nvram 16GB\nrole w x1 jobs 1\n  lock m\n");
    assertThatThrownBy(() -> Interlock.check(f)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(f + ":4:");
    assertThatThrownBy(() -> Interlock.check(dir.resolve("missing.design")))
        .hasMessageStartingWith(dir.resolve("missing.design") + ":1:1: cannot read file");
  }
}
