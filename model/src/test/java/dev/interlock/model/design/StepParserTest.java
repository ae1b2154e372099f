package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link DesignParser#step(String)}: one step's text, read by the design grammar. */
class StepParserTest {

  static Stream<Step> everyKind() {
    return Stream.of(
        new Lock("compute_mtx"),
        new Unlock("compute_mtx"),
        new Acquire("vram_units", 1),
        new Acquire("vram_units", 14),
        new Release("vram_units", 1),
        new Release("vram_units", 14),
        new Alloc("staged", 12 * Sizes.GIB, false),
        new Alloc("scratch", 1536 * Sizes.MIB, true),
        new Alloc("odd", 12 * Sizes.GIB + 1, false),
        new Free("staged"),
        new Trim(),
        new Sync(),
        new Kernel("h2d", List.of()),
        new Kernel("ntt_msm", List.of("staged", "scratch")),
        new Kernel("k", List.of("for"), Optional.of(Duration.ofMillis(500))),
        new Cpu("synthesize"),
        new Cpu("b_g2_msm", Optional.of(Duration.ofMillis(1500))),
        new Alloc("d_bc", 8 * Sizes.GIB, false, true),
        new Alloc("d_bc", 8 * Sizes.GIB, true, true),
        new SyncStream(),
        new Spawn("prep_msm"),
        new Join("prep_msm"),
        new Signal("msm_done"),
        new Wait("msm_done"));
  }

  @ParameterizedTest
  @MethodSource("everyKind")
  void theTextOfEveryStepParsesBackToIt(Step s) throws DesignException {
    assertThat(DesignParser.step(s.text())).isEqualTo(s);
  }

  @Test
  void everyStepOfTheShippedDesignsParsesBack() throws DesignException {
    for (String name : List.of("single-lock", "two-lock", "single-lock-late-release", "reservation")) {
      for (Role r : TestDesigns.shipped(name).roles()) {
        for (Step s : r.body()) {
          assertThat(DesignParser.step(s.text())).as(name + ": " + s.text()).isEqualTo(s);
        }
      }
    }
  }

  @Test
  void readsTheDesignsSpellingsNotOnlyThePrintedOne() throws DesignException {
    assertThat(DesignParser.step("  kernel\tntt_msm   uses staged scratch ")).isEqualTo(new Kernel("ntt_msm", List.of("staged", "scratch")));
    assertThat(DesignParser.step("alloc staged 12288MiB")).isEqualTo(new Alloc("staged", 12 * Sizes.GIB, false));
    assertThat(DesignParser.step("acquire s 1")).isEqualTo(new Acquire("s", 1));
    assertThat(DesignParser.step("cpu c for 0.5s")).isEqualTo(new Cpu("c", Optional.of(Duration.ofMillis(500))));
  }

  @Test
  void mutexSemaphoreAndTaskNamesNeedNoDeclaration() throws DesignException {
    assertThat(DesignParser.step("lock never_declared")).isEqualTo(new Lock("never_declared"));
    assertThat(DesignParser.step("release nor_this 2")).isEqualTo(new Release("nor_this", 2));
    assertThat(DesignParser.step("spawn no_task")).isEqualTo(new Spawn("no_task"));
    assertThat(DesignParser.step("wait never_signalled")).isEqualTo(new Wait("never_signalled"));
  }

  @Test
  void anIfBlockIsNoSingleStep() {
    assertAt(error("if free >= 4GiB"), 1,
        "'if' opens a block of lines (if free ..., else, end) and cannot be read as a single step");
    assertAt(error("  else"), 3, "'else' belongs to an if block and cannot be read as a single step");
    assertAt(error("end"), 1, "'end' belongs to an if block or an on oom handler and cannot be read as a single step");
  }

  @Test
  void anOnOomLineIsNoSingleStep() {
    assertAt(error("on oom ignore"), 1, "'on oom' belongs to the alloc line before it and cannot be read as a single step");
    assertAt(error("  on oom"), 3, "'on oom' belongs to the alloc line before it and cannot be read as a single step");
    assertAt(error("on"), 1, "'on oom' belongs to the alloc line before it and cannot be read as a single step");
  }

  @Test
  void theNewStepsReportBadTextAtTheOffendingToken() {
    assertAt(error("alloc b 1GiB keep async"), 19, "unexpected 'async' after 'alloc b 1GiB keep' (async comes before keep)");
    assertAt(error("alloc b 1GiB kept"), 14, "unexpected 'kept' after 'alloc b 1GiB' (expected async or keep)");
    assertAt(error("sync stream 2"), 13, "unexpected '2' after 'sync stream'");
    assertAt(error("join"), 1, "join needs a task name, e.g. join prep_msm");
    assertAt(error("signal"), 1, "signal needs an event name, e.g. signal ready");
    assertAt(error("wait 1"), 6, "invalid event name '1'");
    assertAt(error("spwan t"), 1, "unknown keyword 'spwan'");
    assertThat(error("spwan t").detail()).endsWith("did you mean 'spawn'?");
  }

  static DesignException error(String text) {
    return catchThrowableOfType(() -> DesignParser.step(text), DesignException.class);
  }

  static void assertAt(DesignException e, int column, String detail) {
    assertThat(e).as("an error").isNotNull();
    assertThat(e.file()).isEqualTo(DesignParser.STEP_FILE);
    assertThat(e.line()).isEqualTo(1);
    assertThat(e.column()).as(e.getMessage()).isEqualTo(column);
    assertThat(e.detail()).startsWith(detail);
    assertThat(e.getMessage()).isEqualTo("<step>:1:" + column + ": " + e.detail());
  }

  @Test
  void badTextIsReportedAtTheOffendingToken() {
    assertAt(error("lokc m"), 1, "unknown keyword 'lokc' (expected one of: lock, unlock,");
    assertThat(error("lokc m").detail()).endsWith("did you mean 'lock'?");
    assertAt(error("alloc staged 12XB"), 14, "bad size unit 'XB' in '12XB'");
    assertAt(error("alloc staged"), 1, "alloc needs a size");
    assertAt(error("sync now"), 6, "unexpected 'now' after 'sync'");
    assertAt(error("lock 9lives"), 6, "invalid mutex name '9lives'");
    assertAt(error("acquire s 0"), 11, "acquire needs at least 1 permit");
    assertAt(error("kernel k uses a a"), 17, "kernel k uses buffer 'a' twice");
    assertAt(error("cpu c for soon"), 11, "bad duration");
    assertAt(error("design d"), 1, "unknown keyword 'design'");
  }

  @Test
  void emptyTextCommentsAndLineBreaksAreNotSteps() {
    assertAt(error(""), 1, "no step (expected one of: lock, unlock,");
    assertAt(error("   "), 1, "no step");
    assertAt(error("lock m # why"), 8, "unexpected '#' (a step has no comment)");
    assertAt(error("sync\nsync"), 5, "unexpected line break (a step is one line)");
    assertAt(error("sync\r"), 5, "unexpected line break");
  }

  @Test
  void columnsCountCodePoints() {
    // U+1D11E is two chars but one column, as in design files.
    assertAt(error("free \uD834\uDD1E x"), 6, "invalid buffer name");
    assertAt(error("cpu \uD834\uDD1E#"), 6, "unexpected '#'");
  }
}
