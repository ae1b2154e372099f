package dev.interlock.model.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The durations file: written and read back, its errors by line, and its times applied to a design. */
class DurationsFileTest {
  private static final List<DurationsFile.Measured> MEASURED = List.of(
      new DurationsFile.Measured("synthesize", DurationsFile.Kind.CPU, OptionalDouble.of(3.5), List.of(0.5, 0.25)),
      new DurationsFile.Measured("ntt_msm", DurationsFile.Kind.KERNEL, OptionalDouble.empty(), List.of(0.125)),
      new DurationsFile.Measured("h2d", DurationsFile.Kind.KERNEL, OptionalDouble.of(1), List.of(0.01)));

  @Test
  void whatIsWrittenReadsBackTheSame() throws Exception {
    String text = DurationsFile.write(MEASURED, List.of("from: a test", "two\nlines"));
    assertThat(text).contains("# from: a test\n", "# two lines\n", "synthesize cpu 3.500 0.500000000 0.250000000\n",
        "ntt_msm kernel - 0.125000000\n");
    assertThat(DurationsFile.parse("d.txt", text)).isEqualTo(MEASURED);
  }

  @Test
  void aBadLineIsNamedWithWhatIsWrong() {
    assertThatThrownBy(() -> DurationsFile.parse("d.txt", "# c\nsynth cpu 1\n")).hasMessage(
        "d.txt:2: expected NAME KIND CORES SECONDS..., got 'synth cpu 1'");
    assertThatThrownBy(() -> DurationsFile.parse("d.txt", "synth gpu 1 0.5\n")).hasMessage(
        "d.txt:1: KIND is cpu or kernel, got 'gpu'");
    assertThatThrownBy(() -> DurationsFile.parse("d.txt", "synth cpu x 0.5\n")).hasMessage(
        "d.txt:1: CORES is a number of cores, at least 0, or '-', got 'x'");
    assertThatThrownBy(() -> DurationsFile.parse("d.txt", "synth cpu - 0.5 -1\n")).hasMessage(
        "d.txt:1: a time is a number of seconds, at least 0, got '-1'");
    assertThatThrownBy(() -> DurationsFile.parse("d.txt", "synth cpu - 0.5\n\nsynth cpu - 0.5\n")).hasMessage(
        "d.txt:3: interval 'synth' is listed twice");
    assertThatThrownBy(() -> DurationsFile.parse("d.txt", "syn-th cpu - 0.5\n")).hasMessageStartingWith(
        "d.txt:1: an interval's name is a word");
    assertThatThrownBy(() -> DurationsFile.parse("d.txt", "# nothing\n")).hasMessage(
        "d.txt: no interval in the file (lines are NAME KIND CORES SECONDS...)");
  }

  @Test
  void aFileOfAnotherDesignTimesTheIntervalsThisOneHasByNameAndKind() {
    Design d = TestDesigns.shipped("single-lock"); // synthesize, ntt_msm, b_g2_msm, epilogue; no h2d
    List<DurationsFile.Measured> withWrongKind = new java.util.ArrayList<>(MEASURED);
    withWrongKind.add(new DurationsFile.Measured("epilogue", DurationsFile.Kind.KERNEL, OptionalDouble.empty(), List.of(9.0)));
    assertThat(StepTimes.unmatched(d, withWrongKind)).containsExactly("h2d", "epilogue");
    StepTimes t = StepTimes.of(d, withWrongKind, Map.of("b_g2_msm", new Timing.Fixed(0.2)));
    assertThat(t.of("synthesize")).contains(new Timing.Samples(new double[] {0.5, 0.25}));
    assertThat(t.of("ntt_msm").orElseThrow().mean()).isEqualTo(0.125);
    assertThat(t.of("b_g2_msm")).contains(new Timing.Fixed(0.2));
    assertThat(t.untimed()).containsExactly("epilogue");
    assertThat(t.cores("synthesize")).isEqualTo(3.5);
    assertThat(t.cores("b_g2_msm")).isEqualTo(1.0);
  }
}
