package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Choose;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceStep;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The engine at a {@code choose}: it takes the path its gate gives, records it, and the model replays it. */
class ChooseOnEngineTest {
  static Design design() throws Exception {
    return DesignParser.parse("choose.design", String.join("\n",
        "design choose",
        "vram 16GiB",
        "mutex compute_mtx",
        "role gpu_worker x2 jobs 2",
        "  choose",
        "    lock compute_mtx",
        "    alloc staged 12GiB",
        "  or",
        "    alloc staged 12GiB",
        "    lock compute_mtx",
        "  end",
        "  kernel ntt uses staged",
        "  free staged",
        "  unlock compute_mtx",
        "  choose",
        "  or",
        "    cpu epilogue",
        "  end",
        ""));
  }

  @Test
  void randomSchedulesTakeBothPathsAndReplayOnTheModel() throws Exception {
    Design d = design();
    Set<Phase> taken = EnumSet.noneOf(Phase.class);
    for (long seed = 0; seed < 30; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      Scheduled.RandomRun run = Scheduled.random(d, "choose.design", new SimulatedDevice(d.vram()), InterpretedPipeline::new,
          rnd::nextInt);
      Trace t = run.report().trace();
      assertThat(Replayer.replay(t, d)).as("seed %d:%n%s", seed, TraceFormat.print(t)).isInstanceOf(ReplayResult.Confirmed.class);
      for (TraceStep s : t.steps()) {
        if (s.step() instanceof Choose) {
          taken.add(s.phase().orElseThrow());
        }
      }
    }
    assertThat(taken).containsExactlyInAnyOrder(Phase.THEN, Phase.ELSE);
  }

  @Test
  void theModelsCounterexampleThroughTheSecondPathReplaysOnTheEngine() throws Exception {
    Design d = design();
    CheckReport c = Checker.check(d, "choose.design", Checker.Options.defaults(1_000_000));
    Trace t = TraceFormat.parse("<choose>", TraceFormat.print(c.counterexample().orElseThrow()));
    assertThat(t.steps()).anyMatch(s -> s.step() instanceof Choose && s.phase().equals(java.util.Optional.of(Phase.ELSE)));
    Design at = t.params().applyTo(d);
    Scheduled.Replay r = Scheduled.replay(at, t.source(), t, new SimulatedDevice(at.vram()), InterpretedPipeline::new);
    assertThat(r.result()).as("%s", TraceFormat.print(t)).isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void freeRunsChooseAtRandomAndStillReplay() throws Exception {
    Design d = DesignParser.parse("safe.design", String.join("\n", "design safe", "vram 16GiB", "mutex m",
        "role w x2 jobs 8", "  lock m", "  choose", "    alloc a 4GiB", "  or", "    alloc a 8GiB", "  end",
        "  kernel k uses a", "  free a", "  unlock m", ""));
    Set<Phase> taken = EnumSet.noneOf(Phase.class);
    for (int run = 0; run < 5; run++) {
      RunReport r = new Engine(new SimulatedDevice(d.vram()), dev.interlock.impl.sync.StepGate.FREE).run(d, "safe.design", InterpretedPipeline::new);
      assertThat(Replayer.replay(r.trace(), d)).isInstanceOf(ReplayResult.Confirmed.class);
      r.trace().steps().stream().filter(s -> s.step() instanceof Choose).forEach(s -> taken.add(s.phase().orElseThrow()));
    }
    assertThat(taken).containsExactlyInAnyOrder(Phase.THEN, Phase.ELSE); // 80 choices: both come up
  }
}
