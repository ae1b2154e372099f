package dev.interlock.impl.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The --faults grammar: KIND=RATE and KIND@STEP:N items; every bad spec gets a positioned message. */
class FaultSpecTest {

  @Test
  void ratesAndStepsParse() {
    FaultSpec s = FaultSpec.parse("--faults", "alloc=0.05,kernel=0.01, interrupt=0.01,alloc@staged:3");
    assertThat(s.rules()).containsExactly(new FaultRule.Rate(FaultKind.ALLOC, 0.05), new FaultRule.Rate(FaultKind.KERNEL, 0.01),
        new FaultRule.Rate(FaultKind.INTERRUPT, 0.01), new FaultRule.AtStep(FaultKind.ALLOC, "staged", 3));
    assertThat(s.rate(FaultKind.ALLOC)).isEqualTo(0.05);
    assertThat(s.rate(FaultKind.POISON)).isZero();
    assertThat(s.atSteps()).containsExactly(new FaultRule.AtStep(FaultKind.ALLOC, "staged", 3));
    assertThat(FaultSpec.parse("--faults", s.text())).isEqualTo(s);
  }

  @Test
  void everyKindHasItsSpecName() {
    for (FaultKind k : FaultKind.values()) {
      assertThat(FaultSpec.parse("--faults", k.specName() + "=1").rate(k)).isEqualTo(1.0);
      assertThat(FaultSpec.parse("--faults", k.specName() + "@x:1").atSteps()).containsExactly(new FaultRule.AtStep(k, "x", 1));
    }
  }

  @Test
  void badSpecsNameTheOptionTheItemAndWhatIsWrong() {
    record Bad(String spec, int item, int column, String message) {}
    List<Bad> bad = List.of(
        new Bad("", 1, 1, "--faults '': item 1 '' (column 1): empty spec: give KIND=RATE or KIND@STEP:N items, comma-separated (kinds: alloc, kernel, stall, poison, interrupt, exception)"),
        new Bad("alloc=0.1,oom=0.2", 2, 11, "--faults 'alloc=0.1,oom=0.2': item 2 'oom=0.2' (column 11): unknown fault kind 'oom' (kinds: alloc, kernel, stall, poison, interrupt, exception)"),
        new Bad("kernel=1.5", 1, 8, "--faults 'kernel=1.5': item 1 'kernel=1.5' (column 8): rate 1.5 is not a probability from 0 to 1"),
        new Bad("kernel=lots", 1, 8, "--faults 'kernel=lots': item 1 'kernel=lots' (column 8): rate 'lots' is not a number (a probability from 0 to 1, e.g. 0.05)"),
        new Bad("alloc=0.1,,stall=0.1", 2, 11, "--faults 'alloc=0.1,,stall=0.1': item 2 '' (column 11): empty item (two commas, or a comma at an end)"),
        new Bad("alloc", 1, 1, "--faults 'alloc': item 1 'alloc' (column 1): needs KIND=RATE or KIND@STEP:N"),
        new Bad("alloc@staged", 1, 7, "--faults 'alloc@staged': item 1 'alloc@staged' (column 7): needs STEP:N after '@', e.g. alloc@staged:3"),
        new Bad("alloc@staged:0", 1, 14, "--faults 'alloc@staged:0': item 1 'alloc@staged:0' (column 14): N counts executions from 1, got 0"),
        new Bad("alloc@staged:x", 1, 14, "--faults 'alloc@staged:x': item 1 'alloc@staged:x' (column 14): N 'x' is not a whole number"),
        new Bad("alloc@1x:2", 1, 7, "--faults 'alloc@1x:2': item 1 'alloc@1x:2' (column 7): step '1x' is not a name (the buffer, kernel, cpu interval, mutex or semaphore the step acts on, or the step's keyword)"),
        new Bad("alloc=0.1,alloc=0.2", 2, 11, "--faults 'alloc=0.1,alloc=0.2': item 2 'alloc=0.2' (column 11): a second rate for alloc (give each kind's rate once)"));
    for (Bad b : bad) {
      FaultSpecException e = catchThrowableOfType(FaultSpecException.class, () -> FaultSpec.parse("--faults", b.spec()));
      assertThat(e).as(b.spec()).isNotNull();
      assertThat(e.getMessage()).as(b.spec()).isEqualTo(b.message());
      assertThat(e.item()).as(b.spec()).isEqualTo(b.item());
      assertThat(e.column()).as(b.spec()).isEqualTo(b.column());
    }
  }

  @Test
  void theSameSeedMakesTheSameDecisionsOnAThread() {
    FaultSpec spec = FaultSpec.parse("--faults", "alloc=0.3,kernel=0.2");
    Faults a = new Faults(spec, 42);
    Faults b = new Faults(spec, 42);
    for (int i = 0; i < 200; i++) {
      assertThat(a.draw(FaultKind.ALLOC, "staged", "x").isPresent()).isEqualTo(b.draw(FaultKind.ALLOC, "staged", "x").isPresent());
      assertThat(a.draw(FaultKind.KERNEL, "k", "x").isPresent()).isEqualTo(b.draw(FaultKind.KERNEL, "k", "x").isPresent());
    }
    assertThat(a.injected()).isEqualTo(b.injected());
    assertThat(a.injected(FaultKind.ALLOC)).isBetween(30L, 100L);
  }

  @Test
  void atStepStrikesOnceAtTheNthExecution() {
    Faults f = new Faults(FaultSpec.parse("--faults", "alloc@staged:3"), 1);
    assertThat(f.draw(FaultKind.ALLOC, "scratch", "x")).isEmpty();
    assertThat(f.draw(FaultKind.ALLOC, "staged", "x")).isEmpty();
    assertThat(f.draw(FaultKind.ALLOC, "staged", "x")).isEmpty();
    assertThat(f.draw(FaultKind.ALLOC, "staged", "x")).isPresent();
    assertThat(f.draw(FaultKind.ALLOC, "staged", "x")).isEmpty();
    assertThat(f.draw(FaultKind.KERNEL, "staged", "x")).isEmpty();
    assertThat(f.injectedTotal()).isEqualTo(1);
  }
}
