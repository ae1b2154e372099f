package dev.interlock.model.param;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
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
    System.out.println(name + " jobs " + jobs + ": " + r.answer());
    assertThat(r.verdict()).isEqualTo(new Verdict.Safe());
    assertThat(r.safeForAllN()).containsExactlyElementsOf(Parameterized.UPWARD);
    assertThat(r.boundedConfigs()).isEqualTo(6);
    assertThat(r.report().design().role("gpu_worker").orElseThrow().threads()).isEqualTo(6);
  }

  @Test
  void twoLockIsOomWithTwoWorkersInNineTransitions() {
    AnyReport r = check(TestDesigns.shipped("two-lock"));
    System.out.println("two-lock: " + r.answer());
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("gpu_worker", 2));
    assertThat(r.report().counterexample().orElseThrow().length()).isEqualTo(9);
    ParamAnswer.Decided d = (ParamAnswer.Decided) r.answer();
    assertThat(d.minimal().get(ViolationKind.OOM)).contains(Map.of("gpu_worker", 2));
    assertThat(r.safeForAllN()).doesNotContain(ViolationKind.OOM).contains(ViolationKind.USE_AFTER_FREE);
  }
}
