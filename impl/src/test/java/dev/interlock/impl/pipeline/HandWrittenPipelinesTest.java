package dev.interlock.impl.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.Event;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The hand-written pipelines on the engine: a stored counterexample's replay, the silent cleanup after a failed step,
 * the factory by design name, sizes from the constructor. That they conform to their designs under random schedules is
 * checked through the public API (interlock-junit's ShippedPipelinesConformanceTest), that their traces equal the
 * interpreter's by ConformanceProperties.
 */
class HandWrittenPipelinesTest {
  @Test
  void twoLockCounterexampleReplaysOnTheHandWrittenPipeline() throws Exception {
    Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/two-lock.oom.trace"));
    Design d = t.params().applyTo(TestDesigns.shipped("two-lock"));
    Scheduled.Replay r = Scheduled.replay(d, t.source(), t, new SimulatedDevice(d.vram()), role -> new TwoLockPipeline());

    assertThat(r.result()).isEqualTo(new ReplayResult.Confirmed(t.length(), t.outcome()));
    assertThat(r.report().trace().steps()).isEqualTo(t.steps());
    assertThat(r.report().trace().outcome()).isInstanceOf(Outcome.Violated.class);
    assertThat(((Outcome.Violated) r.report().trace().outcome()).violation().kind()).isEqualTo(ViolationKind.OOM);
    assertThat(r.report().failed()).isEqualTo(1);
    JobResult.Failed f = r.report().results().stream().filter(JobResult.Failed.class::isInstance)
        .map(JobResult.Failed.class::cast).findFirst().orElseThrow();
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
    assertThat(f.worker()).isEqualTo("gpu_worker#1");
    assertThat(f.step()).isEqualTo("alloc staged 12GiB");
    assertThat(f.violation().message()).startsWith("gpu_worker#1 alloc staged 12GiB: out of device memory: requested 12GiB");
    assertThat(f.memory().live()).as("gpu_worker#0's staged, live at the failed call").isEqualTo(12 * Sizes.GIB);
    assertThat(r.report().results()).hasSize(4);
    assertThat(r.report().aborted()).isEqualTo(3);
    assertThat(r.report().memory().live()).isZero();
    assertThat(r.report().leftover()).isZero();
  }

  @Test
  void aFailedAllocationIsNotFreedAndTheCleanupIsSilent() {
    // single-lock with a scratch that cannot fit beside staged: every job fails at alloc scratch
    Design d = TestDesigns.parse("""
        design single-lock-8
        vram 16GiB
        mutex compute_mtx
        role gpu_worker x1 jobs 3
          cpu synthesize
          lock compute_mtx
          alloc staged 12GiB
          alloc scratch 8GiB
          kernel ntt_msm uses staged scratch
          free scratch
          free staged
          unlock compute_mtx
          cpu b_g2_msm
          cpu epilogue
        """);
    RunReport interpreted = new Engine(new SimulatedDevice(d.vram()), StepGate.FREE).run(d, "x.design", InterpretedPipeline::new);
    RunReport hand = new Engine(new SimulatedDevice(d.vram()), StepGate.FREE)
        .run(d, "x.design", role -> new SingleLockPipeline(12 * Sizes.GIB, 8 * Sizes.GIB));

    for (RunReport r : List.of(interpreted, hand)) {
      assertThat(r.failed()).isEqualTo(3);
      for (JobResult res : r.results()) {
        JobResult.Failed f = (JobResult.Failed) res;
        assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
        assertThat(f.step()).isEqualTo("alloc scratch 8GiB");
        assertThat(f.memory().live()).as("staged is live at the failed call").isEqualTo(12 * Sizes.GIB);
      }
      assertThat(r.memory().live()).isZero();
      assertThat(r.leftover()).isZero();
    }
    // the cleanup after the failed step (free staged, unlock compute_mtx) is not part of the trace, and
    // freeing the failed scratch allocation would have been a BAD_FREE
    List<String> handEvents = hand.events().stream().map(HandWrittenPipelinesTest::describe).toList();
    assertThat(handEvents).isEqualTo(interpreted.events().stream().map(HandWrittenPipelinesTest::describe).toList());
    assertThat(handEvents).hasSize(15).doesNotContain("gpu_worker#0 free staged -").contains("gpu_worker#0 alloc scratch 8GiB - OOM");
  }

  private static String describe(Event e) {
    return e.thread() + " " + e.step().text() + " " + e.phase().map(p -> p.label()).orElse("-")
        + e.failure().map(v -> " " + v.kind()).orElse("");
  }

  @Test
  void forDesignKnowsTheFourShippedDesigns() {
    for (String name : HandWrittenPipelines.designs()) {
      Design d = TestDesigns.shipped(name);
      assertThat(HandWrittenPipelines.forDesign(d.name())).as(name).isPresent();
      assertThat(HandWrittenPipelines.forDesign(d.name()).orElseThrow().apply(d.roles().get(0))).as(name).isNotNull();
    }
    assertThat(HandWrittenPipelines.forDesign("single-lock").orElseThrow().apply(role("gpu_worker")))
        .isInstanceOf(SingleLockPipeline.class);
    assertThat(HandWrittenPipelines.forDesign("two-lock").orElseThrow().apply(role("gpu_worker")))
        .isInstanceOf(TwoLockPipeline.class);
    assertThat(HandWrittenPipelines.forDesign("single-lock-late-release").orElseThrow().apply(role("gpu_worker")))
        .isInstanceOf(SingleLockLateReleasePipeline.class);
    assertThat(HandWrittenPipelines.forDesign("reservation").orElseThrow().apply(role("gpu_worker")))
        .isInstanceOf(ReservationPipeline.class);
    assertThat(HandWrittenPipelines.forDesign("three-lock")).isEqualTo(Optional.empty());
    assertThatThrownBy(() -> HandWrittenPipelines.forDesign("two-lock").orElseThrow().apply(role("cpu_worker")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cpu_worker");
  }

  @Test
  void sizesFromTheConstructorShowInTheSteps() {
    Design d = TestDesigns.parse("""
        design small
        vram 4GiB
        mutex compute_mtx
        semaphore vram_units 4
        role gpu_worker x2 jobs 2
          cpu synthesize
          acquire vram_units 3
          alloc staged 1536MiB
          kernel h2d uses staged
          lock compute_mtx
          alloc scratch 512MiB
          kernel ntt_msm uses staged scratch
          free scratch
          free staged
          unlock compute_mtx
          release vram_units 3
          cpu b_g2_msm
          cpu epilogue
        """);
    for (long seed = 0; seed < 10; seed++) {
      Trace interpreted = Scheduled.random(d, "small.design", new SimulatedDevice(d.vram()), InterpretedPipeline::new,
          new SplittableRandom(seed)::nextInt).report().trace();
      Trace hand = Scheduled.random(d, "small.design", new SimulatedDevice(d.vram()),
          role -> new ReservationPipeline(1536 * Sizes.MIB, 512 * Sizes.MIB, 3), new SplittableRandom(seed)::nextInt)
          .report().trace();
      assertThat(hand.steps()).as("seed %d", seed).isEqualTo(interpreted.steps());
      assertThat(hand.outcome()).isInstanceOf(Outcome.Completed.class);
      assertThat(hand.steps()).extracting(s -> s.step().text()).contains("alloc staged 1536MiB", "acquire vram_units 3");
    }
  }

  private static Role role(String name) {
    return new Role(name, 1, 1, List.of(new Cpu("x")));
  }

  private static String kind(Outcome o) {
    return o instanceof Outcome.Violated v ? v.violation().kind().name() : o.getClass().getSimpleName();
  }
}
