package dev.interlock.impl.engine;

import static dev.interlock.impl.engine.ControlledScheduler.Result.FAILED;
import static dev.interlock.impl.engine.ControlledScheduler.Result.FINISHED;
import static dev.interlock.impl.engine.ControlledScheduler.Result.MOVED;
import static dev.interlock.impl.engine.Stepper.design;
import static dev.interlock.impl.engine.Stepper.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.trace.TraceStep;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** if free, device buffers, the pool's release threshold and sync stream, on the engine and a simulated device. */
@Timeout(30)
class DeviceStepsTest {
  private static final long GIB = Sizes.GIB;

  private static Event only(RunReport r, Class<? extends Step> kind) {
    List<Event> es = r.events().stream().filter(e -> kind.isInstance(e.step())).toList();
    assertThat(es).hasSize(1);
    return es.get(0);
  }

  @Test
  void ifFreeReadsFreeBytesWithCachedOnesCountedAsUsedAndTakesTheBranch() {
    // 16GiB; 6GiB live, 4GiB cached (threshold max keeps it): 6GiB free, so the guard for 8GiB fails
    IfFree guard = new IfFree(true, 8 * GIB, List.of(new Alloc("b", 8 * GIB, false)), List.of(new Alloc("b", 2 * GIB, false)));
    Design d = design(16 * GIB, Design.THRESHOLD_MAX, List.of(), 1, List.of(new Alloc("c", 4 * GIB, true), new Free("c"),
        new SyncStream(), new Alloc("a", 6 * GIB, false), guard, new Free("b"), new Free("a")));
    RunReport r = new Stepper(d).finish();
    assertThat(r.completed()).isEqualTo(1);
    Event check = only(r, IfFree.class);
    assertThat(check.phase()).contains(Phase.ELSE);
    assertThat(check.free()).contains(6 * GIB);
    assertThat(r.events()).extracting(e -> e.step().text())
        .containsExactly("alloc c 4GiB async", "free c", "sync stream", "alloc a 6GiB", "if free >= 8GiB", "alloc b 2GiB",
            "free b", "free a");
    TraceStep t = r.trace().steps().get(4);
    assertThat(t.free()).contains(6 * GIB);
    assertThat(t.phase()).contains(Phase.ELSE);
  }

  @Test
  void theThenBranchAndAnIfThatEndsTheBodyWithAnEmptyBranch() {
    IfFree small = new IfFree(false, 8 * GIB, List.of(new Alloc("x", GIB, false)), List.of());
    Design d = design(16 * GIB, 0, List.of(), 2, List.of(new Alloc("k", 4 * GIB, false, true), small));
    RunReport r = new Stepper(d).finish();
    assertThat(r.completed()).isEqualTo(2);
    List<Event> checks = r.events().stream().filter(e -> e.step() instanceof IfFree).toList();
    assertThat(checks).extracting(e -> e.phase().orElseThrow()).containsExactly(Phase.ELSE, Phase.ELSE);
    assertThat(checks).extracting(e -> e.free().orElseThrow()).containsExactly(12 * GIB, 12 * GIB);
    assertThat(checks.get(1).used()).as("the last job's if ends the body: the kept k goes inside it").isZero();
  }

  @Test
  void twoWorkersCheckThenAllocateAndOneRunsOutOfMemoryInBetween() {
    IfFree guard = new IfFree(true, 12 * GIB, List.of(new Alloc("staged", 12 * GIB, false), new Free("staged")), List.of());
    Design d = new Design("guarded", 16 * GIB, 0, List.of(), List.of(), List.of(), List.of(new Role("w", 2, 1, List.of(guard))),
        List.of());
    Stepper s = new Stepper(d);
    s.grant("w#0", MOVED).grant("w#1", MOVED).grant("w#0", MOVED).grant("w#1", FAILED);
    RunReport r = s.end();
    JobResult.Failed f = r.results().stream().filter(JobResult.Failed.class::isInstance).map(JobResult.Failed.class::cast)
        .findFirst().orElseThrow();
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
    assertThat(f.worker()).isEqualTo("w#1");
    assertThat(r.trace().steps()).extracting(t -> t.free().map(Sizes::format).orElse("-"))
        .containsExactly("16GiB", "16GiB", "-", "-");
  }

  @Test
  void deviceBuffersAreLiveBeforeAnyThreadRunsUsableByAnyThreadAndFreedAtTheEnd() {
    Design d = design(8 * GIB, 0, List.of(new ResidentBuffer("d_a", 4 * GIB)), 2,
        List.of(new Spawn("t"), new Kernel("k", List.of("d_a"))), task("t", new Kernel("k2", List.of("d_a"))));
    Stepper s = new Stepper(d);
    assertThat(s.live()).as("before any step").isEqualTo(4 * GIB);
    RunReport r = s.finish();
    assertThat(r.completed()).isEqualTo(2);
    assertThat(r.events()).allSatisfy(e -> assertThat(e.used()).isEqualTo(4 * GIB));
    assertThat(r.memory().live()).isZero();
    assertThat(r.leftover()).as("device buffers are not left over").isZero();

    SharedEngine shared = new SharedEngine(d, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
    assertThat(shared.runJob("w")).isEqualTo("ok");
    assertThat(shared.device().memory().live()).isEqualTo(4 * GIB);
    shared.close();
    assertThat(shared.device().memory().live()).isZero();
  }

  @Test
  void theReleaseThresholdIsAppliedAtTheStart() {
    // 6GiB freed asynchronously, then a stream sync: threshold 0 releases it all, 4GiB releases down to 4GiB, max nothing
    List<Step> body = List.of(new Alloc("a", 6 * GIB, true), new Free("a"), new SyncStream());
    long[][] cases = {{0, 0}, {4 * GIB, 4 * GIB}, {Design.THRESHOLD_MAX, 6 * GIB}};
    for (long[] c : cases) {
      Design d = design(16 * GIB, c[0], List.of(), 1, body);
      RunReport r = new Engine(new SimulatedDevice(d.vram()), StepGate.FREE).run(d, "threshold.design", InterpretedPipeline::new);
      assertThat(r.events().get(2).cached()).as("threshold %s", Sizes.format(c[0])).isEqualTo(c[1]);
    }
  }

  @Test
  void aTasksKernelEndSynchronizesItsOwnStream() {
    // the task frees c asynchronously on its stream, then its kernel ends: that releases c (threshold 0)
    Design d = design(16 * GIB, 0, List.of(), 1, List.of(new Alloc("c", 2 * GIB, true), new Spawn("t")),
        task("t", new Free("c"), new Kernel("k", List.of())));
    Stepper s = new Stepper(d);
    s.moves("w#0", 1).grant("w#0", FINISHED).moves("w#0/t@1", 2);
    assertThat(s.device.memory().cached()).isEqualTo(2 * GIB);
    s.grant("w#0/t@1", FINISHED);
    assertThat(s.device.memory().cached()).isZero();
  }
}
