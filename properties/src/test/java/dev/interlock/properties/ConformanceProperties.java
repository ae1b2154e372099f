package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.impl.pipeline.HandWrittenPipelines;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignPrinter;
import dev.interlock.model.state.Model;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceStep;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.properties.model.Schedule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reference engine (real threads, real locks, the simulated device) behaves like the model,
 * transition by transition, on random designs and random schedules, in both directions.
 */
class ConformanceProperties {
  private static final int TRIES = Integer.getInteger("interlock.conformance.tries", 150);

  /** A design and an engine run of it on a random schedule. */
  record EngineCase(Design design, Scheduled.RandomRun run) {
    @Override
    public String toString() {
      return "\n" + DesignPrinter.print(design) + "engine trace:\n" + TraceFormat.print(run.report().trace())
          + "blocked attempts: " + run.blocked();
    }
  }

  private static Gen<EngineCase> engineCases() {
    return DesignGen.designs().flatMap(d -> src -> new EngineCase(d, Scheduled.random(d, "<random>", new SimulatedDevice(d.vram()),
        InterpretedPipeline::new, n -> src.choose(n - 1))));
  }

  @Test
  void engineRunsReplayOnTheModelAndBlockWhereTheModelBlocks() {
    PropertyRunner.assertHolds("engine traces are model traces", engineCases(), c -> {
      Trace engine = c.run().report().trace();
      assertThat(Replayer.replay(engine, c.design())).isInstanceOf(ReplayResult.Confirmed.class);
      Model m = new Model(c.design());
      for (Scheduled.BlockedAttempt b : c.run().blocked()) {
        if (b.transitions() > engine.length()) {
          continue; // past an ignored failure the run goes on beyond its trace, which ends in SWALLOWED_OOM
        }
        long[] s = stateAfter(m, engine.steps().subList(0, b.transitions()));
        assertThat(m.nextStep(s, m.threadIndex(b.thread()))).as("%s's step on the model", b.thread()).contains(b.step());
        assertThat(m.step(s, m.threadIndex(b.thread()), new long[s.length]))
            .as("%s blocks at '%s' after %d transitions on the engine", b.thread(), b.step().text(), b.transitions())
            .isEqualTo(Model.BLOCKED);
      }
      assertThat(c.run().report().memory().live()).as("the engine frees everything at shutdown").isZero();
      return true;
    }, Config.defaults("engine traces are model traces").withTries(TRIES));
  }

  /** The model state after the given transitions (which the model has confirmed). */
  private static long[] stateAfter(Model m, List<TraceStep> steps) {
    long[] s = m.initial();
    long[] out = new long[s.length];
    for (TraceStep ts : steps) {
      m.step(s, m.moveOf(s, m.threadIndex(ts.thread()), ts.phase()), out); // a choose takes the trace's path
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    return s;
  }

  /** A design and a model schedule of it. */
  record ModelCase(Design design, Schedule schedule) {
    @Override
    public String toString() {
      return "\n" + DesignPrinter.print(design) + "model schedule:" + schedule;
    }
  }

  @Test
  void modelSchedulesReplayOnTheEngineWithTheSameTrace() {
    Gen<ModelCase> cases = DesignGen.designs().flatMap(d -> Schedule.of(new Model(d), "<random>").map(s -> new ModelCase(d, s)));
    PropertyRunner.assertHolds("model traces replay on the engine", cases, c -> {
      Trace t = c.schedule().trace();
      Scheduled.Replay r = Scheduled.replay(c.design(), "<random>", t, new SimulatedDevice(c.design().vram()), InterpretedPipeline::new);
      assertThat(r.result()).as("engine trace:%n%s", TraceFormat.print(r.report().trace())).isInstanceOf(ReplayResult.Confirmed.class);
      return true;
    }, Config.defaults("model traces replay on the engine").withTries(TRIES));
  }

  /** A shipped design with a hand-written pipeline, and the same random schedule run on it and on the interpreter. */
  record PipelineCase(String design, Scheduled.RandomRun handWritten, Scheduled.RandomRun interpreted) {
    @Override
    public String toString() {
      return design + "\nhand-written:\n" + TraceFormat.print(handWritten.report().trace())
          + "interpreted:\n" + TraceFormat.print(interpreted.report().trace());
    }
  }

  @Test
  void handWrittenPipelinesProduceTheInterpretersTraces() {
    Gen<PipelineCase> cases = Gen.oneOf(HandWrittenPipelines.designs()).flatMap(name -> src -> {
      Design d = Shipped.design(name);
      int[] choices = new int[4096];
      int[] used = {0};
      Scheduled.RandomRun hand = Scheduled.random(d, Shipped.path(name), new SimulatedDevice(d.vram()),
          HandWrittenPipelines.forDesign(name).orElseThrow(), n -> choices[used[0]++] = src.choose(n - 1));
      int[] replayed = {0};
      Scheduled.RandomRun interp = Scheduled.random(d, Shipped.path(name), new SimulatedDevice(d.vram()),
          InterpretedPipeline::new, n -> Math.min(choices[replayed[0]++], n - 1));
      return new PipelineCase(name, hand, interp);
    });
    PropertyRunner.assertHolds("hand-written pipelines match the interpreter", cases, c -> {
      assertThat(c.handWritten().report().trace()).isEqualTo(c.interpreted().report().trace());
      assertThat(c.handWritten().blocked()).isEqualTo(c.interpreted().blocked());
      assertThat(Replayer.replay(c.handWritten().report().trace(), Shipped.design(c.design())))
          .isInstanceOf(ReplayResult.Confirmed.class);
      return true;
    }, Config.defaults("hand-written pipelines match the interpreter").withTries(TRIES));
  }
}
