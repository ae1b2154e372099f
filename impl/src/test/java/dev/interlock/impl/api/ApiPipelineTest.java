package dev.interlock.impl.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.impl.engine.SharedEngine;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A pipeline written only against the api and step text runs on the engine, and its traces replay on the model. */
class ApiPipelineTest {
  /** The design {@link StagingPipeline} implements; safe: the 4 units let one job stage at a time. */
  static final String DESIGN = """
      design api-staging
      vram 4GiB
      mutex m
      semaphore units 4
      role w x2 jobs 3
        cpu prepare
        acquire units 3
        alloc in 2GiB async
        lock m
        alloc out 1GiB
        kernel k uses in out
        free out
        unlock m
        free in
        release units 3
        sync
        cpu finish
      """;

  private static final int SEEDS = 40;

  @Test
  void randomSchedulesReplayOnTheModelAndMatchTheInterpreter() {
    Design d = TestDesigns.parse(DESIGN);
    for (long seed = 0; seed < SEEDS; seed++) {
      Scheduled.RandomRun run = Scheduled.random(d, "api-staging.design", new SimulatedDevice(d.vram()),
          role -> new StagingPipeline(), new SplittableRandom(seed)::nextInt);
      Trace t = run.report().trace();
      assertThat(Replayer.replay(t, d)).as("seed %d:%n%s", seed, TraceFormat.print(t))
          .isEqualTo(new ReplayResult.Confirmed(t.length(), t.outcome()));
      assertThat(t.outcome()).as("seed %d", seed).isInstanceOf(Outcome.Completed.class);
      assertThat(run.report().completed()).as("seed %d", seed).isEqualTo(6);
      Trace interpreted = Scheduled.random(d, "api-staging.design", new SimulatedDevice(d.vram()),
          InterpretedPipeline::new, new SplittableRandom(seed)::nextInt).report().trace();
      assertThat(t.steps()).as("seed %d: the interpreter's steps", seed).isEqualTo(interpreted.steps());
    }
  }

  @Test
  void aFreeRunCompletesEveryJobAndReplaysOnTheModel() {
    Design d = TestDesigns.parse(DESIGN);
    RunReport r = new Engine(new SimulatedDevice(d.vram()), StepGate.FREE).run(d, "api-staging.design",
        role -> new StagingPipeline());
    assertThat(r.completed()).isEqualTo(6);
    assertThat(r.results()).extracting(x -> ((JobResult.Completed) x).value()).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
    assertThat(Replayer.replay(r.trace(), d)).as(TraceFormat.print(r.trace())).isInstanceOf(ReplayResult.Confirmed.class);
    assertThat(r.memory().live()).isZero();
  }

  @Test
  void anUnsafeDesignFailsOnTheModelsViolationAndTheTraceReplays() {
    // with 6 units both workers stage at once: 2GiB + 2GiB + 1GiB do not fit in 4GiB
    Design d = TestDesigns.parse(DESIGN.replace("semaphore units 4", "semaphore units 6"));
    int violated = 0;
    for (long seed = 0; seed < SEEDS; seed++) {
      Trace t = Scheduled.random(d, "api-staging.design", new SimulatedDevice(d.vram()), role -> new StagingPipeline(),
          new SplittableRandom(seed)::nextInt).report().trace();
      assertThat(Replayer.replay(t, d)).as("seed %d:%n%s", seed, TraceFormat.print(t))
          .isEqualTo(new ReplayResult.Confirmed(t.length(), t.outcome()));
      if (t.outcome() instanceof Outcome.Violated v) {
        assertThat(v.violation().kind()).as("seed %d", seed).isEqualTo(ViolationKind.OOM);
        violated++;
      }
    }
    assertThat(violated).as("some of %d schedules run out of memory", SEEDS).isPositive();
  }

  @Test
  void aMalformedStepTextIsReportedWithTheTextAndTheParsersMessage() {
    Design d = TestDesigns.parse(DESIGN);
    DesignException parser = null;
    try {
      DesignParser.step("allocc in 2GiB");
    } catch (DesignException e) {
      parser = e;
    }
    assertThat(parser).as("the parser rejects it").isNotNull();
    String parsersMessage = parser.getMessage();
    SharedEngine engine = new SharedEngine(d, new SimulatedDevice(d.vram()), role -> (w, job) -> {
      w.probe().step("allocc in 2GiB", () -> {});
      return null;
    });
    try {
      for (int i = 0; i < 2; i++) { // the second time past the cache, which keeps only parsed steps
        assertThatThrownBy(() -> engine.run("w")).as("job %d", i).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("'allocc in 2GiB'").hasMessageContaining(parsersMessage);
      }
    } finally {
      engine.close();
    }
  }

  @Test
  void aStepOfTheWrongKindForAnIntervalIsReported() {
    Design d = TestDesigns.parse(DESIGN);
    SharedEngine begin = new SharedEngine(d, new SimulatedDevice(d.vram()), role -> (w, job) -> w.probe().begin("lock m", () -> null));
    SharedEngine interval = new SharedEngine(d, new SimulatedDevice(d.vram()), role -> (w, job) -> {
      w.probe().interval("kernel k uses in out", () -> {});
      return null;
    });
    try {
      assertThatThrownBy(() -> begin.run("w")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'lock m'").hasMessageContaining("not an interval step");
      assertThatThrownBy(() -> interval.run("w")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'kernel k uses in out'").hasMessageContaining("not a cpu step");
    } finally {
      begin.close();
      interval.close();
    }
  }
}
