package dev.interlock.impl.engine;

import static dev.interlock.impl.engine.ControlledScheduler.Result.MOVED;
import static dev.interlock.impl.engine.Stepper.design;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Step;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.TraceFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Allocations with {@code on oom} on the engine: a handled failure runs the handler (phase oom), an ignored one goes
 * on with the buffer missing (kernels run without it, its free does nothing, no leak) and is SWALLOWED_OOM; each run
 * is walked on the model, which must agree on every transition's device bytes and on which kernels run without
 * which buffers ({@link Model#missingUses}).
 */
@Timeout(30)
class FallibleAllocTest {
  private static final long GIB = Sizes.GIB;

  private static Alloc handled(String b, long bytes, Step... handler) {
    return new Alloc(b, bytes, false, false, new OnOom.Handle(List.of(handler)));
  }

  private static Alloc ignored(String b, long bytes, boolean keep) {
    return new Alloc(b, bytes, false, keep, OnOom.IGNORE);
  }

  /**
   * Steps every event of the run (all of them, past the trace's end) on the model: same step, phase and device bytes,
   * and at each kernel begin the same missing buffers; returns the model's violations in order.
   */
  private static List<ViolationKind> walkOnModel(Design d, RunReport r) {
    Model m = new Model(d);
    long[] s = m.initial();
    long[] out = new long[s.length];
    List<ViolationKind> seen = new ArrayList<>();
    for (Event e : r.events()) {
      int t = m.threadIndex(e.thread());
      String at = "event " + e.seq() + " " + e.thread() + " " + e.step().text();
      assertThat(m.nextStep(s, t).map(Step::text)).as(at).contains(e.step().text());
      assertThat(m.nextPhase(s, t)).as(at).isEqualTo(e.phase());
      if (e.step() instanceof Kernel && e.phase().equals(Optional.of(Phase.BEGIN))) {
        List<String> engine = r.withoutBuffers().stream().filter(u -> u.seq() == e.seq()).flatMap(u -> u.buffers().stream())
            .toList();
        assertThat(engine).as(at + ": the buffers it ran without").isEqualTo(m.missingUses(s, t));
      }
      int code = m.step(s, t, out);
      assertThat(code).as(at).isNotEqualTo(Model.BLOCKED);
      ViolationKind v = Model.violation(code);
      if (v != null) {
        seen.add(v);
        assertThat(v).as(at + ": only an ignored failure goes on").isEqualTo(ViolationKind.SWALLOWED_OOM);
      }
      assertThat(m.used(out)).as(at + ": used").isEqualTo(e.used());
      assertThat(m.cached(out)).as(at + ": cached").isEqualTo(e.cached());
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    assertThat(m.allFinished(s)).as("the model's threads have all finished").isTrue();
    return seen;
  }

  private static long frees(SimulatedDevice dev) {
    return dev.deviceCalls().stream().filter(c -> c.kind() == DeviceCall.Kind.FREE).count();
  }

  @Test
  void aHandledFailureRunsTheHandlerWithPhaseOomAndTheJobCompletes() throws Exception {
    Design d = design(8 * GIB, 0, List.of(), 1, List.of(
        handled("a", 10 * GIB, new Alloc("a", 2 * GIB, false), new Cpu("plan")),
        new Kernel("k", List.of("a")), new Free("a")));
    RunReport r = new Stepper(d).finish();
    assertThat(r.results()).singleElement().isInstanceOf(JobResult.Completed.class);
    assertThat(r.events()).extracting(e -> e.step().text() + e.phase().map(p -> " (" + p.label() + ")").orElse(""))
        .containsExactly("alloc a 10GiB (oom)", "alloc a 2GiB", "cpu plan (begin)", "cpu plan (end)", "kernel k uses a (begin)",
            "kernel k uses a (end)", "free a");
    assertThat(r.events().get(0).used()).as("the failed call allocated nothing").isZero();
    assertThat(r.trace().outcome()).isInstanceOf(Outcome.Completed.class);
    assertThat(r.swallowed()).isEmpty();
    assertThat(walkOnModel(d, r)).isEmpty();
    assertThat(Replayer.replay(TraceFormat.parse("engine", TraceFormat.print(r.trace())), d))
        .isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void aHandlersElseRunsOnlyOnSuccessAndEndsTheBodyWhenLast() {
    // job 1 fits (its else runs: kernel and free), job 2 fails beside the kept 6GiB (its handler runs instead)
    Alloc a = new Alloc("a", 4 * GIB, false, false, new OnOom.Handle(List.of(new Cpu("fallback")),
        List.of(new Kernel("k", List.of("a")), new Free("a"))));
    Design d = design(8 * GIB, 0, List.of(), 2, List.of(a, new Alloc("k", 6 * GIB, false, true)));
    RunReport r = new Stepper(d).finish();
    assertThat(r.completed()).isEqualTo(2);
    assertThat(r.events()).extracting(e -> e.step().text() + e.phase().map(p -> " (" + p.label() + ")").orElse(""))
        .containsExactly("alloc a 4GiB", "kernel k uses a (begin)", "kernel k uses a (end)", "free a", "alloc k 6GiB keep",
            "alloc a 4GiB (oom)", "cpu fallback (begin)", "cpu fallback (end)", "alloc k 6GiB keep");
    assertThat(walkOnModel(d, r)).isEmpty();
  }

  @Test
  void anEmptyHandlerThatEndsTheBodyEndsTheJobInTheFailedAlloc() {
    // the handler is empty and the alloc is the body's last step: its failed transition closes the job, kept k going too
    Design d = design(8 * GIB, 0, List.of(), 2, List.of(new Alloc("k", 4 * GIB, false, true), handled("a", 6 * GIB)));
    RunReport r = new Stepper(d).finish();
    assertThat(r.completed()).isEqualTo(2);
    assertThat(r.events()).extracting(e -> e.phase().map(Phase::label).orElse("-")).containsExactly("-", "oom", "-", "oom");
    assertThat(r.events().get(1).used()).as("job 1 ends in its failed alloc; kept k stays").isEqualTo(4 * GIB);
    assertThat(r.events().get(3).used()).as("the last job's failed alloc ends the body: kept k goes inside it").isZero();
    assertThat(walkOnModel(d, r)).isEmpty();
  }

  @Test
  void anIgnoredFailureGoesOnWithTheBufferMissingAndTheKernelRunsWithoutIt() throws Exception {
    Design d = design(8 * GIB, 0, List.of(), 1, List.of(new Alloc("a", 4 * GIB, false), ignored("t", 8 * GIB, false),
        new Kernel("k", List.of("a", "t")), new Free("t"), new Free("a")));
    Stepper s = new Stepper(d);
    RunReport r = s.finish();
    JobResult.Swallowed sw = (JobResult.Swallowed) r.results().get(0);
    assertThat(sw.swallowed()).singleElement().satisfies(v -> {
      assertThat(v.kind()).isEqualTo(ViolationKind.SWALLOWED_OOM);
      assertThat(v.message()).contains("w#0 alloc t 8GiB: out of device memory").contains("goes on without t");
    });
    assertThat(sw.withoutBuffers()).singleElement().satisfies(u -> {
      assertThat(u.step()).isEqualTo("kernel k uses a t");
      assertThat(u.buffers()).containsExactly("t");
      assertThat(u.seq()).isEqualTo(3);
    });
    assertThat(r.withoutBuffers()).isEqualTo(sw.withoutBuffers());
    assertThat(r.swallowed()).isEqualTo(sw.swallowed());
    // the trace ends at the ignored failure, as the model's counterexample does; the job went on to its end
    assertThat(r.trace().outcome()).isInstanceOfSatisfying(Outcome.Violated.class,
        o -> assertThat(o.violation().kind()).isEqualTo(ViolationKind.SWALLOWED_OOM));
    assertThat(r.trace().steps()).hasSize(2);
    assertThat(r.trace().steps().get(1).phase()).contains(Phase.OOM);
    assertThat(r.events()).hasSize(6);
    assertThat(frees(s.device)).as("free t is cudaFree(NULL): no device call; free a is one").isEqualTo(1);
    assertThat(r.memory().live()).isZero();
    assertThat(r.leftover()).isZero();
    assertThat(r.failed()).isZero();
    assertThat(r.completed()).as("a swallowed job is no success").isZero();
    assertThat(walkOnModel(d, r)).containsExactly(ViolationKind.SWALLOWED_OOM);
    assertThat(Replayer.replay(TraceFormat.parse("engine", TraceFormat.print(r.trace())), d))
        .isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void aMissingBufferIsNoLeakAtTheJobsEndAndANewAllocationReplacesTheMark() {
    Design d = design(8 * GIB, 0, List.of(), 1, List.of(ignored("t", 16 * GIB, false), new Free("t"),
        ignored("t", 2 * GIB, false), new Kernel("k", List.of("t")), new Free("t"), ignored("u", 9 * GIB, false)));
    SimulatedDevice dev = new SimulatedDevice(d.vram());
    RunReport r = new Engine(dev, StepGate.FREE).run(d, "missing.design", InterpretedPipeline::new);
    JobResult.Swallowed sw = (JobResult.Swallowed) r.results().get(0);
    assertThat(sw.swallowed()).hasSize(2);
    assertThat(sw.withoutBuffers()).as("t was allocated again before the kernel").isEmpty();
    assertThat(r.failed()).as("u missing at the job's end is no leak").isZero();
    assertThat(frees(dev)).as("only the allocated t is freed on the device").isEqualTo(1);
    assertThat(walkOnModel(d, r)).containsExactly(ViolationKind.SWALLOWED_OOM, ViolationKind.SWALLOWED_OOM);
  }

  @Test
  void aMissingKeptBufferIsAllocatedAgainByTheNextJobAndItsKernelsRunWithoutIt() {
    Design d = design(8 * GIB, 0, List.of(), 2, List.of(ignored("k", 9 * GIB, true), new Kernel("use", List.of("k"))));
    RunReport r = new Stepper(d).finish();
    assertThat(r.results()).hasSize(2).allSatisfy(x -> assertThat(x).isInstanceOf(JobResult.Swallowed.class));
    assertThat(r.withoutBuffers()).extracting(MissingUse::job).containsExactly(0, 1);
    assertThat(r.events()).filteredOn(e -> e.step() instanceof Alloc).extracting(e -> e.phase().orElseThrow())
        .containsExactly(Phase.OOM, Phase.OOM);
    assertThat(walkOnModel(d, r)).containsExactly(ViolationKind.SWALLOWED_OOM, ViolationKind.SWALLOWED_OOM);
  }

  @Test
  void aKernelOfAnotherWorkerIsNotAffectedAndAFailureWithoutOnOomStaysAnOom() {
    // two workers: w#1's scratch fails beside w#0's; w#0 ran with its own
    Design d = new Design("two", 8 * GIB, 0, List.of(), List.of(), List.of(), List.of(new dev.interlock.model.design.Role("w", 2, 1,
        List.of(ignored("t", 5 * GIB, false), new Kernel("k", List.of("t")), new Free("t")))), List.of());
    Stepper s = new Stepper(d);
    s.grant("w#0", MOVED).grant("w#1", MOVED);
    RunReport r = s.finish();
    assertThat(r.results().stream().filter(JobResult.Swallowed.class::isInstance).map(JobResult::worker)).containsExactly("w#1");
    assertThat(r.results().stream().filter(JobResult.Completed.class::isInstance).map(JobResult::worker)).containsExactly("w#0");
    assertThat(r.withoutBuffers()).extracting(MissingUse::thread).containsExactly("w#1");
    assertThat(walkOnModel(d, r)).containsExactly(ViolationKind.SWALLOWED_OOM);

    Design fails = design(8 * GIB, 0, List.of(), 1, List.of(new Alloc("t", 9 * GIB, false)));
    RunReport f = new Stepper(fails).finish();
    assertThat(f.results()).singleElement().isInstanceOfSatisfying(JobResult.Failed.class,
        x -> assertThat(x.violation().kind()).isEqualTo(ViolationKind.OOM));
  }

  @Test
  void anInjectedAllocationFailureRunsTheHandlerOrIsIgnoredAsARealOomWouldBe() {
    Design d = design(16 * GIB, 0, List.of(), 1, List.of(handled("a", 4 * GIB, new Alloc("a", 2 * GIB, false)),
        new Kernel("k", List.of("a")), new Free("a"), ignored("b", GIB, false), new Kernel("k2", List.of("b")), new Free("b")));
    for (String spec : new String[] {"alloc@a:1", "alloc@b:1"}) {
      FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(d.vram()), new Faults(FaultSpec.parse("--faults", spec), 1));
      RunReport r = new Engine(dev, StepGate.FREE).run(d, "injected.design", InterpretedPipeline::new);
      assertThat(dev.faults().injected(FaultKind.ALLOC)).as(spec).isEqualTo(1);
      assertThat(r.faulted()).as(spec + ": the job's own handling took it, not the engine's").isZero();
      assertThat(r.memory().live()).isZero();
      if (spec.equals("alloc@a:1")) {
        assertThat(r.results()).singleElement().isInstanceOf(JobResult.Completed.class);
        assertThat(r.events()).extracting(e -> e.step().text()).startsWith("alloc a 4GiB", "alloc a 2GiB");
        assertThat(r.events().get(0).phase()).contains(Phase.OOM);
      } else {
        JobResult.Swallowed sw = (JobResult.Swallowed) r.results().get(0);
        assertThat(sw.swallowed().get(0).message()).contains("injected alloc fault at b");
        assertThat(sw.withoutBuffers()).extracting(MissingUse::step).containsExactly("kernel k2 uses b");
      }
    }
  }
}
