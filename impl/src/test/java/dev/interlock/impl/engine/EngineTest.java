package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.pipeline.SingleLockPipeline;
import dev.interlock.impl.pipeline.TwoLockPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.List;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine in free runs (StepGate.FREE, real concurrency), and violations forced by controlled schedules. */
@Timeout(30)
class EngineTest {
  private static final long GIB = Sizes.GIB;
  private static final long WATCHDOG_MILLIS = 20;

  private static RunReport free(Design d, Function<Role, Pipeline> pipelines) {
    return new Engine(new SimulatedDevice(d.vram()), StepGate.FREE, WATCHDOG_MILLIS).run(d, d.name() + ".design", pipelines);
  }

  private static List<JobResult.Failed> failures(RunReport r) {
    return r.results().stream().filter(JobResult.Failed.class::isInstance).map(JobResult.Failed.class::cast).toList();
  }

  private static JobResult.Failed onlyFailure(RunReport r) {
    assertThat(r.results()).as("results").hasSize(1);
    assertThat(r.results().get(0)).isInstanceOf(JobResult.Failed.class);
    return (JobResult.Failed) r.results().get(0);
  }

  private static void assertEveryJobOnce(RunReport r, int jobs) {
    assertThat(r.results()).extracting(x -> x.job().id()).containsExactlyElementsOf(IntStream.range(0, jobs).boxed().toList());
  }

  private static void assertDeviceEmpty(RunReport r) {
    assertThat(r.memory().live()).as("live bytes after the run").isZero();
    assertThat(r.memory().cached()).as("cached bytes after the run").isZero();
  }

  // ---- shipped designs, free runs ----

  @Test
  void singleLockFreeRunCompletesEveryJobWithinVram() {
    Design d = TestDesigns.shipped("single-lock").withJobs("gpu_worker", 50);
    assertSingleLockRun(free(d, InterpretedPipeline::new));
  }

  @Test
  void handWrittenSingleLockFreeRunCompletesEveryJobWithinVram() {
    Design d = TestDesigns.shipped("single-lock").withJobs("gpu_worker", 50);
    assertSingleLockRun(free(d, role -> new SingleLockPipeline()));
  }

  private static void assertSingleLockRun(RunReport r) {
    assertThat(r.completed()).isEqualTo(150);
    assertThat(r.failed()).isZero();
    assertThat(r.aborted()).isZero();
    assertEveryJobOnce(r, 150);
    assertThat(r.deadlock()).isEmpty();
    assertThat(r.trace().outcome()).isInstanceOf(Outcome.Completed.class);
    // 150 jobs of 14 transitions each
    assertThat(r.events()).hasSize(150 * 14);
    assertThat(r.memory().peakUsed()).isBetween(14 * GIB, 16 * GIB);
    assertThat(r.leftover()).isZero();
    assertDeviceEmpty(r);
  }

  @Test
  void twoLockFreeRunGivesEveryJobAResultAndOnlyOutOfMemoryFailures() {
    Design d = TestDesigns.shipped("two-lock").withJobs("gpu_worker", 20);
    for (Function<Role, Pipeline> p : List.<Function<Role, Pipeline>>of(InterpretedPipeline::new, role -> new TwoLockPipeline())) {
      RunReport r = free(d, p);
      assertEveryJobOnce(r, 60);
      assertThat(r.aborted()).as("a free run goes on after a failed job").isZero();
      assertThat(r.completed() + r.failed()).isEqualTo(60);
      for (JobResult.Failed f : failures(r)) {
        assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
        assertThat(f.worker()).matches("gpu_worker#[012]");
        assertThat(f.step()).isIn("alloc staged 12GiB", "alloc scratch 2GiB");
        assertThat(f.violation().message()).startsWith(f.worker() + " " + f.step() + ": out of device memory: requested ");
        assertThat(f.memory()).isNotNull();
        assertThat(f.memory().capacity()).isEqualTo(16 * GIB);
      }
      if (r.failed() > 0) {
        assertThat(r.trace().outcome()).isInstanceOf(Outcome.Violated.class);
      }
      assertThat(r.memory().peakUsed()).isLessThanOrEqualTo(16 * GIB);
      assertThat(r.leftover()).isZero();
      assertDeviceEmpty(r);
    }
  }

  @Test
  void twoLockOutOfMemoryForcedByTheCounterexampleSchedule() throws Exception {
    Trace t = TraceFormat.read(TestDesigns.root().resolve("traces/two-lock.oom.trace"));
    // the counterexample's interleaving on the bigger free-run configuration: 3 workers x 20 jobs
    Design d = TestDesigns.shipped("two-lock").withJobs("gpu_worker", 20);
    for (Function<Role, Pipeline> p : List.<Function<Role, Pipeline>>of(InterpretedPipeline::new, role -> new TwoLockPipeline())) {
      Scheduled.Replay r = Scheduled.replay(d, t.source(), t, new SimulatedDevice(d.vram()), p);
      assertThat(r.result()).isInstanceOf(ReplayResult.Confirmed.class);
      RunReport report = r.report();
      assertEveryJobOnce(report, 60);
      assertThat(report.failed()).isEqualTo(1);
      assertThat(report.aborted()).isEqualTo(59);
      JobResult.Failed f = failures(report).get(0);
      assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
      assertThat(f.worker()).isEqualTo("gpu_worker#1");
      assertThat(f.step()).isEqualTo("alloc staged 12GiB");
      assertThat(f.violation().message()).isEqualTo("gpu_worker#1 alloc staged 12GiB: out of device memory: requested 12GiB, "
          + "4GiB free of 16GiB (12GiB live, 0B cached)");
      // the device at the failed call, before the aborted workers released anything
      assertThat(f.memory().live()).isEqualTo(12 * GIB);
      assertThat(report.trace().steps()).isEqualTo(t.steps());
      assertThat(report.memory().peakUsed()).isEqualTo(12 * GIB);
      assertDeviceEmpty(report);
    }
  }

  // ---- deadlocks ----

  private static final String LOCK_ORDER = """
      design lock-order
      vram 4GiB
      mutex a
      mutex b
      role p jobs 5
        alloc buf 1GiB
        lock a
        lock b
        unlock b
        unlock a
        free buf
      role q jobs 5
        lock b
        lock a
        unlock a
        unlock b
      """;

  @Test
  void lockOrderDeadlockForcedByTheCheckersCounterexample() {
    Design d = TestDesigns.parse(LOCK_ORDER);
    CheckReport check = Checker.check(d, "lock-order.design", Checker.Options.defaults(1_000_000));
    assertThat(check.verdict()).isInstanceOf(Verdict.Unsafe.class);
    assertThat(((Verdict.Unsafe) check.verdict()).violation().kind()).isEqualTo(ViolationKind.DEADLOCK);
    Trace t = check.counterexample().orElseThrow();
    Design checked = t.params().applyTo(d);

    Scheduled.Replay r = Scheduled.replay(checked, t.source(), t, new SimulatedDevice(checked.vram()), InterpretedPipeline::new);

    assertThat(r.result()).isEqualTo(new ReplayResult.Confirmed(t.length(), t.outcome()));
    RunReport report = r.report();
    assertThat(report.trace().steps()).isEqualTo(t.steps());
    assertThat(report.trace().outcome()).isInstanceOf(Outcome.Violated.class);
    assertThat(((Outcome.Violated) report.trace().outcome()).violation().kind()).isEqualTo(ViolationKind.DEADLOCK);
    // each thread holds the mutex the other waits for
    assertThat(t.steps()).extracting(s -> s.thread() + " " + s.step().text()).contains("p#0 lock a", "q#0 lock b");
    assertEveryJobOnce(report, 10);
    assertThat(report.completed() + report.aborted()).isEqualTo(10);
    assertThat(report.failed()).isZero();
    assertThat(report.leftover()).isZero();
    assertDeviceEmpty(report);
  }

  @Test
  void freeRunThatCannotProceedIsReportedByTheWatchdog() {
    Design d = TestDesigns.parse("""
        design starved
        vram 4GiB
        semaphore s 0
        role p x2 jobs 2
          alloc buf 1GiB
          acquire s
          release s
          free buf
        """);
    RunReport r = free(d, InterpretedPipeline::new);

    assertThat(r.deadlock()).isPresent();
    assertThat(r.deadlock().get()).contains("p#0 at 'acquire s'", "p#1 at 'acquire s'", "waiting on acquire s 1");
    assertEveryJobOnce(r, 4);
    List<JobResult.Failed> failed = failures(r);
    assertThat(failed).hasSize(2);
    assertThat(failed).extracting(JobResult.Failed::worker).containsExactlyInAnyOrder("p#0", "p#1");
    for (JobResult.Failed f : failed) {
      assertThat(f.violation().kind()).isEqualTo(ViolationKind.DEADLOCK);
      assertThat(f.step()).isEqualTo("at 'acquire s'");
      assertThat(f.violation().message()).contains(f.worker() + " at 'acquire s'");
    }
    assertThat(r.aborted()).as("each worker's second job").isEqualTo(2);
    assertThat(r.trace().outcome()).isInstanceOf(Outcome.Violated.class);
    assertThat(((Outcome.Violated) r.trace().outcome()).violation().kind()).isEqualTo(ViolationKind.DEADLOCK);
    assertThat(r.trace().steps()).extracting(s -> s.step().text()).containsExactly("alloc buf 1GiB", "alloc buf 1GiB");
    // (no replay of this trace on the model: in a free run an event's device bytes are read after its
    // operation, so two concurrent allocations can both record 2GiB)
    assertThat(r.memory().peakUsed()).isEqualTo(2 * GIB);
    assertDeviceEmpty(r);
    assertThat(r.leftover()).as("the failed jobs' buffers were released by the engine, not at shutdown").isZero();
  }

  @Test
  void lockingAHeldMutexFailsAtOnce() {
    Design d = TestDesigns.parse("""
        design self-lock
        vram 1GiB
        mutex m
        role p
          lock m
          lock m
          unlock m
          unlock m
        """);
    RunReport r = free(d, InterpretedPipeline::new);
    JobResult.Failed f = onlyFailure(r);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.DEADLOCK);
    assertThat(f.step()).isEqualTo("lock m");
    assertThat(f.violation().message()).isEqualTo("p#0 locks m, which it already holds");
    assertThat(r.deadlock()).as("found by the mutex, not the watchdog").isEmpty();
    assertConfirmedByModel(r, d, 2);
  }

  // ---- the other violations, one tiny design each ----

  @Test
  void releasingMorePermitsThanHeld() {
    JobResult.Failed f = runTiny("""
        semaphore s 2
        role p
          acquire s
          release s 2
        """, 2);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.RELEASE_EXCESS);
    assertThat(f.step()).isEqualTo("release s 2");
    assertThat(f.violation().message()).contains("releases 2 permits of s but holds 1");
  }

  @Test
  void unlockingAMutexNotHeld() {
    JobResult.Failed f = runTiny("""
        mutex m
        role p
          cpu warmup
          unlock m
        """, 3);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.UNLOCK_NOT_HELD);
    assertThat(f.step()).isEqualTo("unlock m");
    assertThat(f.violation().message()).contains("p#0 unlocks m, held by nobody");
  }

  @Test
  void freeingABufferTwice() {
    JobResult.Failed f = runTiny("""
        role p
          alloc b 1GiB
          free b
          free b
        """, 3);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.BAD_FREE);
    assertThat(f.step()).isEqualTo("free b");
  }

  @Test
  void kernelUsingAFreedBuffer() {
    JobResult.Failed f = runTiny("""
        role p
          alloc a 1GiB
          alloc b 1GiB
          free b
          kernel k uses a b
          free a
        """, 4);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.USE_AFTER_FREE);
    assertThat(f.step()).isEqualTo("kernel k uses a b");
    assertThat(f.violation().message()).startsWith("p#0 kernel k uses a buffer that is not live");
    assertThat(f.memory().live()).as("a is still live when the kernel fails").isEqualTo(GIB);
  }

  @Test
  void jobEndingWithALiveBufferLeaks() {
    JobResult.Failed f = runTiny("""
        role p
          alloc a 1GiB
          alloc b 2GiB
          free a
        """, 3);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.LEAK);
    assertThat(f.step()).isEqualTo("after 'free a'");
    assertThat(f.violation().message()).isEqualTo("p#0 job 0 ends with live buffers [b]");
    assertThat(f.memory().live()).isEqualTo(2 * GIB);
  }

  @Test
  void allocatingOverALiveHandleLeaks() {
    JobResult.Failed f = runTiny("""
        role p
          alloc b 1GiB
          alloc b 1GiB
          free b
        """, 2);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.LEAK);
    assertThat(f.step()).isEqualTo("alloc b 1GiB");
    assertThat(f.violation().message()).contains("b is still live");
  }

  /** Runs a one-thread, one-job design freely; returns its failed result after checking the run's ending. */
  private static JobResult.Failed runTiny(String body, int transitions) {
    Design d = TestDesigns.parse("design tiny\nvram 4GiB\n" + body);
    RunReport r = free(d, InterpretedPipeline::new);
    JobResult.Failed f = onlyFailure(r);
    assertThat(f.worker()).isEqualTo("p#0");
    assertThat(r.deadlock()).isEmpty();
    assertThat(((Outcome.Violated) r.trace().outcome()).violation()).isEqualTo(f.violation());
    assertConfirmedByModel(r, d, transitions);
    return f;
  }

  /** The run's trace has {@code transitions} transitions and ends the way the model says. */
  private static void assertConfirmedByModel(RunReport r, Design d, int transitions) {
    assertThat(r.trace().length()).isEqualTo(transitions);
    assertThat(Replayer.replay(r.trace(), d)).as(TraceFormat.print(r.trace())).isInstanceOf(ReplayResult.Confirmed.class);
    assertThat(r.leftover()).isZero();
    MemoryInfo m = r.memory();
    assertThat(m.live()).isZero();
    assertThat(m.cached()).isZero();
  }
}
