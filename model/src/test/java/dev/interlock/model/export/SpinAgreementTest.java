package dev.interlock.model.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Counterexample;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.ViolationKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spin, run on the exported model of every shipped design at small thread and job counts, answers as the checker
 * does: no error for a SAFE design, and for an unsafe one a violation kind the checker finds reachable too. Skipped
 * (visibly) without spin; under CI=true a missing spin fails.
 */
class SpinAgreementTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void spinPresent() {
    SpinRequirement.require();
  }

  /**
   * The configurations: every shipped design at 1 and 2 threads; with {@code -Dinterlock.spin.full=true} also the plain
   * designs at 3 threads and the cuzk ones at 1 thread of 2 jobs (36 in all, about 60 s on 2 cores instead of 40).
   */
  static Stream<Arguments> configurations() {
    boolean full = Boolean.getBoolean("interlock.spin.full");
    List<String> plain = List.of("single-lock", "single-lock-late-release", "reservation", "two-lock", "many-small");
    List<String> cuzk = List.of("head", "phase8", "phase9", "phase10", "phase11", "phase12", "proposal9");
    Stream<Arguments> a = plain.stream().flatMap(n -> (full ? Stream.of(1, 2, 3) : Stream.of(1, 2))
        .map(t -> Arguments.of(n, t, 2)));
    Stream<Arguments> b = cuzk.stream().flatMap(n -> full
        ? Stream.of(Arguments.of("cuzk/" + n, 1, 1), Arguments.of("cuzk/" + n, 1, 2), Arguments.of("cuzk/" + n, 2, 1))
        : Stream.of(Arguments.of("cuzk/" + n, 1, 1), Arguments.of("cuzk/" + n, 2, 1)));
    return Stream.concat(a, b);
  }

  @ParameterizedTest(name = "{0} threads {1} jobs {2}")
  @MethodSource("configurations")
  void spinAgreesWithTheChecker(String name, int threads, int jobs) throws Exception {
    Design d = TestDesigns.shipped(name);
    for (Role r : d.roles()) {
      d = d.withThreads(r.name(), threads).withJobs(r.name(), jobs);
    }
    Spin.Result spin = Spin.verify(PromelaExport.promela(d), dir, Duration.ofSeconds(120));
    assertThat(spin.complete()).as("Spin's search is complete:\n%s", spin.output()).isTrue();
    Set<ViolationKind> reachable = reachableKinds(d);
    if (reachable.isEmpty()) {
      assertThat(spin.violation()).as("Spin on a design the checker finds SAFE:\n%s", spin.output()).isEmpty();
    } else {
      assertThat(spin.violation()).as("Spin on a design with reachable %s", reachable).isPresent();
      assertThat(reachable).contains(spin.violation().get());
    }
  }

  /** Every violation kind reachable at the design's counts (the checker's exhaustive search, all kinds). */
  static Set<ViolationKind> reachableKinds(Design d) {
    CheckReport r = Checker.check(d, "<test>", new Checker.Options(5_000_000, Optional.empty(), false, true, true));
    assertThat(r.search().limitReached()).as("the checker's search is complete").isFalse();
    Set<ViolationKind> kinds = EnumSet.noneOf(ViolationKind.class);
    for (Counterexample c : r.violations()) {
      kinds.add(c.violation().kind());
    }
    return kinds;
  }
}
