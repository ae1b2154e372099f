package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Counterexample;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignPrinter;
import dev.interlock.model.export.PromelaExport;
import dev.interlock.model.export.Spin;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.engine.Source;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.properties.model.Schedule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Spin on the exported model of random designs answers as the checker does: no error exactly when the checker finds
 * the design SAFE, and otherwise a violation kind the checker finds reachable. 30 designs; the seed is printed.
 * And the comparison has teeth on {@code on oom}: an export that treats a handled failure as OOM disagrees on some of
 * the generated designs. Skipped visibly without spin; under CI=true a missing spin fails.
 */
class SpinAgreementProperties {
  private static final int TRIES = 30;
  /** How many generated designs whose schedules fail into a handler the mutation may take to be caught. */
  private static final int MUTATION_CANDIDATES = 12;

  private static void requireSpin() {
    Spin.unavailable().ifPresent(why -> {
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError("Spin test needs spin under CI=true: " + why);
      }
      System.out.println("Spin test skipped: " + why);
      Assumptions.abort("Spin test skipped: " + why);
    });
  }

  /** Every violation kind the checker finds reachable at d's counts, or null when its search hit the limit. */
  private static Set<ViolationKind> reachable(Design d) {
    CheckReport r = Checker.check(d, "<random>", new Checker.Options(2_000_000, Optional.empty(), false, true, true));
    if (r.search().limitReached()) {
      return null;
    }
    Set<ViolationKind> reachable = EnumSet.noneOf(ViolationKind.class);
    for (Counterexample c : r.violations()) {
      reachable.add(c.violation().kind());
    }
    return reachable;
  }

  private static Spin.Result spin(String promela) {
    try {
      Path dir = Files.createTempDirectory("interlock-spin-");
      return Spin.verify(promela, dir, Duration.ofSeconds(60));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Whether Spin's answer is the checker's: no error on a SAFE design, else a kind the checker finds reachable. */
  private static boolean agrees(Spin.Result spin, Set<ViolationKind> reachable) {
    return reachable.isEmpty() ? spin.violation().isEmpty()
        : spin.violation().isPresent() && reachable.contains(spin.violation().get());
  }

  @Test
  void spinAndTheCheckerGiveTheSameVerdict() {
    requireSpin();
    AtomicInteger unsafe = new AtomicInteger();
    AtomicInteger safe = new AtomicInteger();
    AtomicInteger onOom = new AtomicInteger();
    PropertyRunner.assertHolds("Spin agrees with the checker on random designs", DesignGen.designs(), d -> {
      Set<ViolationKind> reachable = reachable(d);
      if (reachable == null) {
        return true;
      }
      onOom.addAndGet(fallible(d) ? 1 : 0);
      Spin.Result spin = spin(PromelaExport.promela(d));
      assertThat(spin.complete()).as("Spin's search is complete:\n%s", spin.output()).isTrue();
      if (reachable.isEmpty()) {
        safe.incrementAndGet();
        assertThat(spin.violation()).as("Spin on a design the checker finds SAFE").isEmpty();
      } else {
        unsafe.incrementAndGet();
        assertThat(spin.violation()).as("Spin on a design with reachable %s", reachable).isPresent();
        assertThat(reachable).contains(spin.violation().get());
      }
      return true;
    }, Config.defaults("Spin agrees with the checker on random designs").withTries(TRIES));
    System.out.println("Spin agreement: " + safe + " SAFE and " + unsafe + " unsafe designs compared, " + onOom
        + " of them with on oom");
    assertThat(safe.get()).as("SAFE designs compared").isPositive();
    assertThat(unsafe.get()).as("unsafe designs compared").isPositive();
    assertThat(onOom.get()).as("designs with on oom compared").isPositive();
  }

  /**
   * A wrong semantics of {@code on oom} is caught: the export with each handled failure made an OOM (the handler's
   * transition asserts OOM) disagrees with the checker on one of the first generated designs whose random schedules
   * fail into a handler.
   */
  @Test
  void anExportThatTreatsHandledFailuresAsOomIsCaught() {
    requireSpin();
    long seed = Config.defaults("handled failures as OOM are caught").seed();
    System.out.println("[interlock] SpinAgreementProperties.anExportThatTreatsHandledFailuresAsOomIsCaught seed=" + seed
        + " (rerun with -Dinterlock.seed=" + seed + ")");
    int candidates = 0;
    for (long i = 0; candidates < MUTATION_CANDIDATES && i < 2_000; i++) {
      Design d = DesignGen.designs().generate(Source.random(seed + i));
      if (!failsIntoAHandler(d, seed + i)) {
        continue;
      }
      Set<ViolationKind> reachable = reachable(d);
      if (reachable == null) {
        continue;
      }
      candidates++;
      String pml = PromelaExport.promela(d);
      String mutant = handledAsOom(pml);
      assertThat(mutant).as("the mutation changes the export").isNotEqualTo(pml);
      Spin.Result spin = spin(mutant);
      if (spin.complete() && !agrees(spin, reachable)) {
        System.out.println("[interlock] the mutant disagrees on design " + (i + 1) + " (candidate " + candidates
            + "): checker " + reachable + ", mutated Spin " + spin.violation() + "\n" + DesignPrinter.print(d));
        return;
      }
    }
    throw new AssertionError("an export treating handled failures as OOM agreed with the checker on " + candidates
        + " designs that fail into a handler (seed " + seed + "): the comparison cannot tell the semantics apart");
  }

  /** The export with each handler's transition (the alloc failed) asserting OOM first. */
  static String handledAsOom(String promela) {
    return promela.lines().map(l -> l.contains(": fails, on oom */") ? l.replaceFirst(" -> ", " -> assert(OOM); ") : l)
        .collect(Collectors.joining("\n", "", "\n"));
  }

  /** Whether some random schedule of d (5 tried) fails an allocation into its handler. */
  private static boolean failsIntoAHandler(Design d, long seed) {
    if (!fallible(d)) {
      return false;
    }
    Model m = new Model(d);
    for (int k = 0; k < 5; k++) {
      Schedule s = Schedule.of(m, "<random>").generate(Source.random(seed * 31 + k));
      if (s.trace().steps().stream().anyMatch(x -> x.phase().equals(Optional.of(Phase.OOM))
          && x.step() instanceof Alloc && !s.trace().steps().get(s.trace().steps().size() - 1).equals(x))) {
        return true;
      }
    }
    return false;
  }

  /** Whether some alloc of d has an {@code on oom}. */
  static boolean fallible(Design d) {
    List<Step> all = new ArrayList<>();
    d.roles().forEach(r -> Steps.forEach(r.body(), all::add));
    d.tasks().forEach(t -> Steps.forEach(t.body(), all::add));
    return all.stream().anyMatch(s -> s instanceof Alloc a && !(a.onOom() instanceof OnOom.Fail));
  }
}
