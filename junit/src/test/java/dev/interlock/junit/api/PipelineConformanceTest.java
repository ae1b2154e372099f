package dev.interlock.junit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.interlock.junit.api.ConformanceDemoPipeline.Bug;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** PipelineConformance passes a pipeline that follows its design and fails, reproducibly, one that does not. */
class PipelineConformanceTest {
  private static final long SEED = 7;

  private static PipelineConformance demo(Bug bug) {
    return PipelineConformance.of(ConformanceDemoPipeline.SAFE, () -> new ConformanceDemoPipeline(bug)).seed(SEED);
  }

  @Test
  void aPipelineThatFollowsItsDesignConformsOnEverySchedule() {
    PipelineConformance.ScheduleSummary s = demo(Bug.NONE).randomSchedules(30).check();
    assertThat(s).isEqualTo(new PipelineConformance.ScheduleSummary("demo", SEED, 30, 30, java.util.Map.of()));
  }

  @ParameterizedTest
  @EnumSource(value = Bug.class, names = {"ALLOC_OUTSIDE_LOCK", "FREES_TWICE", "LATE_UNLOCK", "WRONG_SIZE"})
  void aBuggyPipelineDivergesWithTheSeedThePositionAndWhatTheModelAllows(Bug bug) {
    AssertionError e = catchThrowableOfType(() -> demo(bug).randomSchedules(30).check(), AssertionError.class);
    assertThat(e).as("%s is caught", bug).isNotNull();
    assertThat(e.getMessage()).contains("design demo, schedule 0 of 30 (seed 7)")
        .containsPattern("diverges from the model at transition \\d+ of \\d+: ")
        .contains("the model allows there: w#0 ").contains("engine trace:\n").contains("# interlock trace");
    // the seed reproduces it: the same run fails with the same message
    assertThat(catchThrowableOfType(() -> demo(bug).randomSchedules(30).check(), AssertionError.class))
        .hasMessage(e.getMessage());
  }

  @Test
  void theFailureSaysWhatTheDesignExpectsInsteadOfTheBuggyStep() {
    AssertionError e = catchThrowableOfType(() -> demo(Bug.ALLOC_OUTSIDE_LOCK).randomSchedules(1).check(),
        AssertionError.class);
    assertThat(e.getMessage()).contains("is at 'lock m', the trace has 'alloc buf 3GiB'")
        .containsPattern("w#\\d 'lock m' \\(can move\\)");
  }

  @Test
  void aWrongBufferSizeDivergesOnTheDeviceBytes() {
    AssertionError e = catchThrowableOfType(() -> demo(Bug.WRONG_SIZE).randomSchedules(1).check(),
        AssertionError.class);
    assertThat(e.getMessage()).contains("device after the step: used 3GiB").contains("the trace has used 1GiB");
  }

  @Test
  void aPipelineThatThrowsFails() {
    assertThatThrownBy(() -> demo(Bug.THROWS).randomSchedules(3).check()).isInstanceOf(AssertionError.class)
        .hasMessageContaining("pipeline error").hasMessageContaining("the pipeline's own bug")
        .hasMessageContaining("(seed 7)");
  }

  @Test
  void theSeedIsTheGivenOneElseTheDefault() {
    assertThat(demo(Bug.NONE).seed(123).randomSchedules(2).check().seed()).isEqualTo(123);
    if (System.getProperty(PipelineConformance.SEED_PROPERTY, "").isBlank()) {
      assertThat(PipelineConformance.of(ConformanceDemoPipeline.SAFE, () -> new ConformanceDemoPipeline(Bug.NONE))
          .randomSchedules(2).check().seed()).isEqualTo(PipelineConformance.DEFAULT_SEED);
    }
  }

  @Test
  void schedulesOfOneSeedDifferAndAreReproducible() {
    assertThat(ConformanceSchedules.scheduleSeed(SEED, 0)).isEqualTo(ConformanceSchedules.scheduleSeed(SEED, 0))
        .isNotEqualTo(ConformanceSchedules.scheduleSeed(SEED, 1))
        .isNotEqualTo(ConformanceSchedules.scheduleSeed(SEED + 1, 0));
  }

  @Test
  void anUnsafeDesignsCounterexampleReplaysOnAPipelineThatFollowsIt() {
    PipelineConformance c = PipelineConformance.of(ConformanceDemoPipeline.UNSAFE,
        () -> new ConformanceDemoPipeline(Bug.NONE, true)).seed(SEED);
    PipelineConformance.ReplaySummary r = c.replaysCounterexamples();
    assertThat(r.verdict()).isEqualTo("OOM");
    assertThat(r.replayed()).containsExactly("OOM in 2 transitions, threads w=2");
    // and its random schedules conform up to the out-of-memory the model reaches too
    PipelineConformance.ScheduleSummary s = c.randomSchedules(30).check();
    assertThat(s.violated()).containsOnlyKeys("OOM");
  }

  @Test
  void aPipelineThatNeverReachesTheCheckersOutOfMemoryFailsTheReplay() {
    PipelineConformance c = PipelineConformance.of(ConformanceDemoPipeline.UNSAFE,
        () -> new ConformanceDemoPipeline(Bug.WRONG_SIZE, true));
    assertThatThrownBy(c::replaysCounterexamples).isInstanceOf(AssertionError.class)
        .hasMessageContaining("counterexample 1 of 1 (OOM in 2 transitions, threads w=2)")
        .hasMessageContaining("the pipeline does not fail the same way").hasMessageContaining("counterexample:\n")
        .hasMessageContaining("engine trace:\n");
  }

  @Test
  void badInputIsRejectedWithItsPosition() {
    assertThatThrownBy(() -> PipelineConformance.of("design x\nvram 4GiB\nrole w x1 jobs 1\n  lok m\n",
        () -> new ConformanceDemoPipeline(Bug.NONE))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("<text>.design:4:");
    assertThatThrownBy(() -> demo(Bug.NONE).threads("nobody", 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no role nobody");
    assertThatThrownBy(() -> demo(Bug.NONE).randomSchedules(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> demo(Bug.NONE).vram("lots")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("vram: ");
  }

  @Test
  void withoutLincheckLinearizableNamesTheDependencyToAdd() throws Exception {
    try (URLClassLoader bare = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
      assertThatThrownBy(() -> PipelineConformance.requireLincheck(bare)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("add org.jetbrains.lincheck:lincheck:" + PipelineConformance.LINCHECK_VERSION
              + " to your test dependencies");
    }
    PipelineConformance.requireLincheck(PipelineConformance.class.getClassLoader()); // present here
  }

  @Test
  void theLincheckVersionNamedIsTheBuildsOwn() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"));
    assertThat(pom).contains("<lincheck.version>" + PipelineConformance.LINCHECK_VERSION + "</lincheck.version>");
  }
}
