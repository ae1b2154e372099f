package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.fault.Fault;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Outcome;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Retention#COUNTS}: a run keeps no event, result or retried attempt, only its {@link RunTally}, whose figures
 * are those of the same run keeping everything; with {@link Retention#ALL} the tally agrees with the kept lists.
 */
@Timeout(60)
class RetentionTest {
  private static final Design SINGLE_LOCK = TestDesigns.shipped("single-lock");
  private static final String FAULTS = "alloc=0.05,kernel=0.02,poison=0.005,interrupt=0.01,exception=0.01";

  private record Run(RunReport report, Faults faults, FaultyDevice device) {}

  /** One worker: its fault stream, hence the whole run, is the same every time (docs/faults.md). */
  private static Run seeded(Retention retention, int jobs) {
    Design d = SINGLE_LOCK.withThreads("gpu_worker", 1).withJobs("gpu_worker", jobs);
    Faults faults = new Faults(FaultSpec.parse("--faults", FAULTS), 7);
    FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(d.vram()), faults);
    RunReport r = new Engine(dev, StepGate.FREE, 100, new RetryPolicy(2, 0, false)).keeping(retention)
        .run(d, "single-lock.design", InterpretedPipeline::new);
    return new Run(r, faults, dev);
  }

  @Test
  void aCountsRunPrintsTheFiguresOfTheSameRunKeepingEverything() {
    Run all = seeded(Retention.ALL, 400);
    Run counts = seeded(Retention.COUNTS, 400);
    RunTally a = all.report().tally();
    RunTally c = counts.report().tally();
    assertThat(a.retries()).as("the seed must retry some jobs and let some run out of retries").isPositive();
    assertThat(a.jobs().faulted()).isPositive();
    assertThat(counts.faults().injected()).isEqualTo(all.faults().injected());
    assertThat(counts.device().reopens()).isEqualTo(all.device().reopens()).isPositive();
    assertThat(c.transitions()).isEqualTo(a.transitions());
    assertThat(c.jobs()).isEqualTo(a.jobs());
    assertThat(c.role("gpu_worker")).isEqualTo(a.role("gpu_worker"));
    assertThat(List.of(c.retries(), c.retriesAfterInjected(), c.retriesAfterReal(), c.jobsRetried(), c.completedAfterRetries(),
        c.jobsWithResult())).isEqualTo(List.of(a.retries(), a.retriesAfterInjected(), a.retriesAfterReal(), a.jobsRetried(),
        a.completedAfterRetries(), a.jobsWithResult()));
    assertThat(c.faultedExamples()).extracting(f -> f.job().id() + " " + f.step() + " " + f.fault().describe())
        .isEqualTo(a.faultedExamples().stream().map(f -> f.job().id() + " " + f.step() + " " + f.fault().describe()).toList());
    assertThat(counts.report().trace().outcome()).isEqualTo(all.report().trace().outcome());

    RunReport kept = counts.report();
    assertThat(kept.retention()).isEqualTo(Retention.COUNTS);
    assertThat(kept.events()).isEmpty();
    assertThat(kept.results()).isEmpty();
    assertThat(kept.retried()).isEmpty();
    assertThat(kept.trace().steps()).isEmpty();
    assertThat(kept.leftover()).isZero();
    assertThat(kept.heldAtShutdown()).isEmpty();
  }

  @Test
  void keepingEverythingTheTallyAgreesWithTheLists() {
    RunReport r = seeded(Retention.ALL, 200).report();
    RunTally t = r.tally();
    assertThat(t.transitions()).isEqualTo(r.events().size());
    assertThat(r.trace().outcome()).isInstanceOf(Outcome.Completed.class);
    assertThat(r.trace().steps()).hasSize(r.events().size());
    assertThat(t.jobs().total()).isEqualTo(r.results().size()).isEqualTo(200);
    assertThat(t.jobs().faulted()).isEqualTo(r.results().stream().filter(JobResult.Faulted.class::isInstance).count());
    assertThat(t.jobs().completed()).isEqualTo(r.results().stream().filter(JobResult.Completed.class::isInstance).count());
    assertThat(t.retries()).isEqualTo(r.retried().size());
    assertThat(t.jobsRetried()).isEqualTo(r.retried().stream().map(x -> x.job().id()).distinct().count());
    assertThat(t.faultedExamples()).containsExactlyElementsOf(r.results().stream().filter(JobResult.Faulted.class::isInstance)
        .map(JobResult.Faulted.class::cast).limit(RunTally.EXAMPLES).toList());
  }

  @Test
  void aLongCountsRunHoldsNoEvent() {
    Design one = SINGLE_LOCK.withThreads("gpu_worker", 1).withJobs("gpu_worker", 1);
    int perJob = new Engine(new SimulatedDevice(one.vram()), StepGate.FREE).run(one, "single-lock.design",
        InterpretedPipeline::new).events().size();
    Design d = SINGLE_LOCK.withJobs("gpu_worker", 1500);
    Engine.Run run = new Engine(new SimulatedDevice(d.vram()), StepGate.FREE).keeping(Retention.COUNTS)
        .start(d, "single-lock.design", InterpretedPipeline::new);
    RunReport r = run.await();
    assertThat(r.transitions()).isEqualTo(run.log().size()).isEqualTo(4500L * perJob);
    assertThat(run.log().keepsEvents()).isFalse();
    assertThat(run.log().events()).isEmpty();
    assertThat(r.events()).isEmpty();
    assertThat(r.results()).isEmpty();
    assertThat(r.completed()).isEqualTo(r.tally().jobsWithResult()).isEqualTo(4500);
    assertThat(r.tally().failedExamples()).isEmpty();
  }

  @Test
  void anAttemptTakenBackForARetryPushesOutNoExampleThatStays() {
    RunTally t = new RunTally(1);
    MemoryInfo m = new MemoryInfo(16, 0, 0, 0);
    IntStream.rangeClosed(1, RunTally.EXAMPLES).forEach(id -> t.ended(faulted(id, m)));
    JobResult.Faulted attempt = faulted(0, m);
    t.ended(attempt); // job 0's attempt, retried below: it must not push out job 20's result
    t.retried(attempt);
    t.ended(new JobResult.Completed(new Job(0, "gpu_worker", null), "gpu_worker#0", null));
    assertThat(t.faultedExamples()).extracting(f -> f.job().id())
        .containsExactlyElementsOf(IntStream.rangeClosed(1, RunTally.EXAMPLES).boxed().toList());
    assertThat(t.jobs()).isEqualTo(new RunTally.Counts(1, 0, 0, RunTally.EXAMPLES, 0));
    assertThat(List.of(t.retries(), t.jobsRetried(), t.completedAfterRetries(), t.jobsWithResult()))
        .isEqualTo(List.of(1L, 1L, 1L, (long) RunTally.EXAMPLES + 1));
  }

  private static JobResult.Faulted faulted(int id, MemoryInfo m) {
    return new JobResult.Faulted(new Job(id, "gpu_worker", null), "gpu_worker#0", "alloc staged 12GiB",
        new Fault(FaultKind.ALLOC, "staged", "gpu_worker#0", "out of device memory (injected)"), m);
  }
}
