package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Engine} and {@link SharedEngine} end a job alike: the same result for a failed step and
 * for a leak at the job's end, and what the failed job held is released before the next one.
 */
@Timeout(30)
class JobLifecycleTest {
  private static final long GIB = Sizes.GIB;

  private static RunReport free(Design d, Function<Role, Pipeline> pipelines) {
    return new Engine(new SimulatedDevice(d.vram()), StepGate.FREE, 20).run(d, d.name() + ".design", pipelines);
  }

  /** Runs every job of role p, one after another, on a SharedEngine; also checks the device after each. */
  private static List<JobResult> shared(Design d, long cachedAfterEach) {
    SharedEngine engine = new SharedEngine(d, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
    List<JobResult> results = new ArrayList<>();
    for (int i = 0; i < d.roles().get(0).jobs(); i++) {
      results.add(engine.run("p"));
      MemoryInfo m = engine.device().memory();
      assertThat(m.live()).as("live after job %d", i).isZero();
      assertThat(m.cached()).as("the failed job's async buffer went into the cache").isEqualTo(cachedAfterEach);
    }
    assertThat(engine.log().firstViolation()).as("the first failure is in the log").contains(((JobResult.Failed) results.get(0)).violation());
    return results;
  }

  @Test
  void aJobFailingMidwayEndsAlikeAndReleasesWhatItHeld() {
    Design d = TestDesigns.parse("""
        design midway
        vram 4GiB
        mutex m
        semaphore s 1
        role p jobs 2
          lock m
          acquire s
          alloc a 1GiB async
          alloc b 1GiB
          free b
          kernel k uses a b
          free a
          release s
          unlock m
        """);
    RunReport run = free(d, InterpretedPipeline::new);
    List<JobResult> alone = shared(d, GIB);

    assertThat(alone).as("the same results, device included").isEqualTo(run.results());
    // the second job locks m and acquires s again: a mutex or permit left held would end it otherwise
    for (JobResult r : alone) {
      JobResult.Failed f = (JobResult.Failed) r;
      assertThat(f.violation().kind()).isEqualTo(ViolationKind.USE_AFTER_FREE);
      assertThat(f.step()).isEqualTo("kernel k uses a b");
      assertThat(f.memory().live()).as("a is live when the kernel fails").isEqualTo(GIB);
    }
    assertThat(run.deadlock()).isEmpty();
    assertThat(run.leftover()).as("the engine freed a, not the shutdown").isZero();
  }

  @Test
  void aJobEndingWithALiveBufferIsALeakInBoth() {
    Design d = TestDesigns.parse("""
        design leak
        vram 4GiB
        role p jobs 2
          alloc a 1GiB
          alloc b 2GiB async
          free a
        """);
    RunReport run = free(d, InterpretedPipeline::new);
    List<JobResult> alone = shared(d, 2 * GIB);

    assertThat(run.results()).hasSize(2);
    assertThat(alone).hasSize(2);
    for (int i = 0; i < 2; i++) {
      JobResult.Failed e = (JobResult.Failed) run.results().get(i);
      JobResult.Failed s = (JobResult.Failed) alone.get(i);
      assertThat(s.violation().kind()).isEqualTo(ViolationKind.LEAK);
      assertThat(s.violation().message()).isEqualTo("p#0 job " + i + " ends with live buffers [b]");
      assertThat(s.memory().live()).as("b is live when the job ends").isEqualTo(2 * GIB);
      assertThat(e.job()).isEqualTo(s.job());
      assertThat(e.worker()).isEqualTo(s.worker());
      assertThat(e.violation()).isEqualTo(s.violation());
      assertThat(e.memory()).isEqualTo(s.memory());
      // the one difference: the engine names the worker's position, a caller's job its end
      assertThat(e.step()).isEqualTo("after 'free a'");
      assertThat(s.step()).isEqualTo(SharedEngine.END_OF_JOB);
    }
    assertThat(((Outcome.Violated) run.trace().outcome()).violation()).isEqualTo(((JobResult.Failed) alone.get(0)).violation());
    assertThat(run.leftover()).isZero();
  }

  @Test
  void aPipelineErrorReleasesWhatTheJobHeldThenAbortsTheRunOrPropagates() {
    Design d = TestDesigns.parse("""
        design broken
        vram 4GiB
        mutex m
        role p jobs 2
          lock m
          unlock m
        """);
    Function<Role, Pipeline> broken = role -> (w, job) -> {
      w.probe().step("lock m", () -> w.resources().mutex("m").lock());
      throw new IllegalStateException("broken pipeline");
    };

    RunReport run = free(d, broken);
    assertThat(run.results()).extracting(r -> ((JobResult.Aborted) r).why())
        .containsExactly("pipeline error: java.lang.IllegalStateException: broken pipeline", "an earlier job of p#0 ended the run");

    SharedEngine engine = new SharedEngine(d, new SimulatedDevice(d.vram()), broken);
    for (int i = 0; i < 2; i++) {
      // the second job locks m again: were it still held, that would fail as a DEADLOCK instead
      assertThatThrownBy(() -> engine.run("p")).as("job %d", i).isInstanceOf(IllegalStateException.class).hasMessage("broken pipeline");
    }
  }
}
