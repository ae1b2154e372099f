package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The engine under the controlled scheduler: traces replay on real threads, random runs agree with the model. */
class ScheduledTest {

  @Test
  void twoLockCounterexampleReproducesTheOutOfMemoryOnTheEngine() throws Exception {
    Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/two-lock.oom.trace"));
    Design d = t.params().applyTo(TestDesigns.shipped("two-lock"));
    Scheduled.Replay r = Scheduled.replay(d, t.source(), t, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
    assertThat(r.result()).isInstanceOf(ReplayResult.Confirmed.class);
    assertThat(r.report().failed()).isEqualTo(1);
    JobResult.Failed f = (JobResult.Failed) r.report().results().stream().filter(x -> x instanceof JobResult.Failed).findFirst().orElseThrow();
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
    assertThat(f.worker()).isEqualTo("gpu_worker#1");
    assertThat(f.step()).isEqualTo("alloc staged 12GiB");
    assertThat(r.report().trace().steps()).isEqualTo(t.steps());
    assertThat(r.report().memory().live()).isZero();
  }

  @Test
  void randomEngineRunsOfTheCuzkCorpusReplayOnTheModel() {
    // tasks, barriers, finalizers, guards, kept and device buffers, the pool threshold: the engine and the model agree
    for (String name : new String[] {"phase8", "phase9", "phase10", "phase11", "phase12", "head", "proposal9"}) {
      Design d = TestDesigns.shipped("cuzk/" + name);
      for (long seed = 0; seed < 15; seed++) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Scheduled.RandomRun run = Scheduled.random(d, "designs/cuzk/" + name + ".design", new SimulatedDevice(d.vram()),
            InterpretedPipeline::new, rnd::nextInt);
        Trace engine = run.report().trace();
        assertThat(Replayer.replay(engine, d)).as("%s seed %d:%n%s", name, seed, TraceFormat.print(engine))
            .isInstanceOf(ReplayResult.Confirmed.class);
        assertThat(run.report().memory().live()).as("%s seed %d: live after the run", name, seed).isZero();
      }
    }
  }

  @Test
  void randomEngineRunsReplayOnTheModel() {
    for (String name : new String[] {"single-lock", "two-lock", "reservation", "single-lock-late-release"}) {
      Design d = TestDesigns.shipped(name);
      for (long seed = 0; seed < 20; seed++) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Scheduled.RandomRun run = Scheduled.random(d, "designs/" + name + ".design", new SimulatedDevice(d.vram()),
            InterpretedPipeline::new, rnd::nextInt);
        Trace engine = run.report().trace();
        assertThat(Replayer.replay(engine, d)).as("%s seed %d:%n%s", name, seed, TraceFormat.print(engine))
            .isInstanceOf(ReplayResult.Confirmed.class);
        if (name.equals("single-lock")) {
          assertThat(engine.outcome()).isInstanceOf(Outcome.Completed.class);
          assertThat(run.report().completed()).isEqualTo(6);
        }
      }
    }
  }
}
