package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.pipeline.SingleLockPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Kernel;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine under injected faults: each kind, at a chosen step ({@code KIND@STEP:N}) and at random rates; every job
 * gets exactly one result, a failed job releases what it held, retries recover injected faults only, and the device is
 * empty at the end (after any reopening).
 */
@Timeout(60)
class EngineFaultsTest {
  private static final Design SINGLE_LOCK = TestDesigns.shipped("single-lock");

  private record Run(RunReport report, FaultyDevice device) {}

  private static Run run(Design d, String spec, long seed, RetryPolicy retry) {
    FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(d.vram()), new Faults(FaultSpec.parse("--faults", spec), seed));
    RunReport r = new Engine(dev, StepGate.FREE, 100, retry).run(d, d.name() + ".design", InterpretedPipeline::new);
    assertClean(r, dev, d.roles().stream().mapToInt(x -> x.threads() * x.jobs()).sum());
    return new Run(r, dev);
  }

  /** Every job once, nothing live on the device (the current one, after any reopening), no lock or permit held. */
  private static void assertClean(RunReport r, FaultyDevice dev, int jobs) {
    assertThat(r.results()).extracting(x -> x.job().id()).containsExactlyElementsOf(IntStream.range(0, jobs).boxed().toList());
    assertThat(r.leftover()).as("buffers live at shutdown").isZero();
    assertThat(r.memory().live()).as("live bytes after the run").isZero();
    assertThat(dev.current().liveBuffers(null)).isEmpty();
    assertThat(r.heldAtShutdown()).isEmpty();
    assertThat(r.deadlock()).isEmpty();
    assertThat(dev.poisoned()).isFalse();
  }

  private static JobResult.Faulted onlyFault(RunReport r) {
    List<JobResult.Faulted> f = r.results().stream().filter(JobResult.Faulted.class::isInstance).map(JobResult.Faulted.class::cast).toList();
    assertThat(f).as("%s", r.results()).hasSize(1);
    assertThat(r.completed()).as("%s", r.results()).isEqualTo(r.results().size() - 1);
    return f.get(0);
  }

  @Test
  void allocAtStepFailsThatJobOnlyAndItsLockIsReleased() {
    Run run = run(SINGLE_LOCK, "alloc@staged:3", 1, RetryPolicy.NONE);
    JobResult.Faulted f = onlyFault(run.report());
    assertThat(f.fault().kind()).isEqualTo(FaultKind.ALLOC);
    assertThat(f.step()).isEqualTo("alloc staged 12GiB");
    assertThat(f.fault().describe()).startsWith("injected alloc fault at staged on gpu_worker#").contains("out of device memory (injected)");
  }

  @Test
  void kernelAtStepFailsAtLaunchOrAtAwait() {
    for (long seed = 0; seed < 6; seed++) {
      Run run = run(SINGLE_LOCK, "kernel@ntt_msm:2", seed, RetryPolicy.NONE);
      JobResult.Faulted f = onlyFault(run.report());
      assertThat(f.fault().kind()).isEqualTo(FaultKind.KERNEL);
      assertThat(f.step()).isEqualTo("kernel ntt_msm uses staged scratch");
      assertThat(f.fault().detail()).matches("kernel ntt_msm failed (to launch|during execution \\(at its await\\))");
    }
  }

  /**
   * Kernel steps busy under a kernel fault at launch or at await (a kernel that begins and never ends), retried: one
   * worker's kernels run one at a time, so their union is the sum of the kernels that ended.
   */
  @Test
  void kernelStepsBusyIsTheSumOfTheKernelsThatEndedUnderKernelFaults() {
    Design oneWorker = SINGLE_LOCK.withThreads("gpu_worker", 1).withJobs("gpu_worker", 6); // its faults depend on the seed only
    int abandoned = 0;
    for (long seed = 0; seed < 6; seed++) {
      RunReport r = run(oneWorker, "kernel@ntt_msm:2", seed, new RetryPolicy(1, 0, false)).report();
      assertThat(r.completed()).isEqualTo(6);
      long sum = 0;
      Map<String, Event> last = new HashMap<>();
      for (Event e : r.events()) {
        Event before = last.put(e.thread(), e);
        if (e.step() instanceof Kernel && e.phase().equals(Optional.of(Phase.BEGIN))) {
          abandoned++;
        } else if (e.step() instanceof Kernel && e.phase().equals(Optional.of(Phase.END))) {
          assertThat(before.step()).isEqualTo(e.step());
          assertThat(before.phase()).contains(Phase.BEGIN);
          sum += e.nanos() - before.nanos();
          abandoned--;
        }
      }
      assertThat(KernelBusy.nanos(r.events())).as("seed %d", seed).isEqualTo(sum).isPositive();
    }
    assertThat(abandoned).as("kernels that failed at their await: begun, never ended").isPositive();
  }

  @Test
  void aStallDelaysAKernelAndTheJobStillCompletes() {
    FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(SINGLE_LOCK.vram()),
        new Faults(FaultSpec.parse("--faults", "stall@ntt_msm:1"), 1, 50_000_000));
    long t0 = System.nanoTime();
    RunReport r = new Engine(dev, StepGate.FREE).run(SINGLE_LOCK, "single-lock.design", InterpretedPipeline::new);
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(50_000_000);
    assertThat(r.completed()).isEqualTo(6);
    assertThat(dev.faults().injected(FaultKind.STALL)).isEqualTo(1);
    assertClean(r, dev, 6);
  }

  @Test
  void aPoisonFailsTheJobsInFlightAndTheDeviceIsReopened() {
    Design d = SINGLE_LOCK.withJobs("gpu_worker", 10);
    Run run = run(d, "poison@staged:4", 7, RetryPolicy.NONE);
    assertThat(run.device().reopens()).isEqualTo(1);
    assertThat(run.report().faulted()).isGreaterThanOrEqualTo(1);
    assertThat(run.report().results().stream().filter(JobResult.Faulted.class::isInstance)
        .map(x -> ((JobResult.Faulted) x).fault().kind())).containsOnly(FaultKind.POISON);
    assertThat(run.report().completed() + run.report().faulted()).isEqualTo(30);
  }

  @Test
  void aPoisonWithRetriesLosesNothing() {
    Design d = SINGLE_LOCK.withJobs("gpu_worker", 10);
    Run run = run(d, "poison@staged:4,poison@ntt_msm:9", 7, new RetryPolicy(3, 0, false));
    assertThat(run.device().reopens()).isEqualTo(2);
    assertThat(run.report().completed()).isEqualTo(30);
    assertThat(run.report().retried()).isNotEmpty().allMatch(JobResult.Faulted.class::isInstance);
  }

  @Test
  void anInterruptFailsTheStepAndReleasesTheLock() {
    Run run = run(SINGLE_LOCK, "interrupt@compute_mtx:2", 1, RetryPolicy.NONE);
    JobResult.Faulted f = onlyFault(run.report());
    assertThat(f.fault().kind()).isEqualTo(FaultKind.INTERRUPT);
    assertThat(f.step()).isIn("lock compute_mtx", "unlock compute_mtx");
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void anExceptionFromPipelineCodeFailsThatJob() {
    Run run = run(SINGLE_LOCK, "exception@scratch:2", 1, RetryPolicy.NONE);
    JobResult.Faulted f = onlyFault(run.report());
    assertThat(f.fault().kind()).isEqualTo(FaultKind.EXCEPTION);
    assertThat(f.step()).isIn("alloc scratch 2GiB", "free scratch");
  }

  @Test
  void retriesRecoverAnInjectedFaultAndRecordOneResultPerJob() {
    Run run = run(SINGLE_LOCK, "alloc@staged:3", 1, new RetryPolicy(1, 1, false));
    assertThat(run.report().completed()).isEqualTo(6);
    assertThat(run.report().retried()).hasSize(1).allMatch(JobResult.Faulted.class::isInstance);
  }

  @Test
  void aRealOomIsTheDesignsFailureAndIsRetriedOnlyWhenAsked() {
    Design twoLock = TestDesigns.shipped("two-lock").withJobs("gpu_worker", 20);
    for (int attempt = 0; attempt < 20; attempt++) { // a real OOM needs an interleaving; a free run usually finds it
      Run plain = run(twoLock, "alloc@none:1", 1, new RetryPolicy(3, 0, false));
      if (plain.report().failed() == 0) {
        continue;
      }
      assertThat(plain.report().results()).filteredOn(JobResult.Failed.class::isInstance)
          .allMatch(x -> ((JobResult.Failed) x).violation().kind() == ViolationKind.OOM);
      assertThat(plain.report().retried()).isEmpty();
      Run real = run(twoLock, "alloc@none:1", 1, new RetryPolicy(50, 0, true));
      assertThat(real.report().retried()).allMatch(JobResult.Failed.class::isInstance);
      return;
    }
    throw new AssertionError("no real OOM in 20 free runs of two-lock");
  }

  @Test
  void randomFaultsOfEveryKindWithRetriesLoseNoJob() {
    long seed = System.nanoTime();
    System.out.println("[interlock] EngineFaultsTest random faults seed=" + seed);
    Design d = SINGLE_LOCK.withJobs("gpu_worker", 100);
    Run run = run(d, "alloc=0.05,kernel=0.02,stall=0.02,poison=0.005,interrupt=0.01,exception=0.01", seed,
        new RetryPolicy(20, 0, false));
    assertThat(run.report().completed()).as("seed %d: %s", seed, run.report().results()).isEqualTo(300);
    assertThat(run.report().retried()).as("seed " + seed).isNotEmpty().allMatch(JobResult.Faulted.class::isInstance);
  }

  @Test
  void handWrittenPipelinesRecoverToo() {
    Design d = SINGLE_LOCK.withJobs("gpu_worker", 20);
    FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(d.vram()),
        new Faults(FaultSpec.parse("--faults", "alloc=0.1,kernel=0.05,poison@staged:7"), 3));
    RunReport r = new Engine(dev, StepGate.FREE, 100, new RetryPolicy(20, 0, false)).run(d, "single-lock.design",
        role -> new SingleLockPipeline());
    assertClean(r, dev, 60);
    assertThat(r.completed()).isEqualTo(60);
    assertThat(dev.reopens()).isEqualTo(1);
  }

  @Test
  void aSharedEngineReleasesTheCallersLocksAfterAFaultedJob() throws Exception {
    FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(SINGLE_LOCK.vram()),
        new Faults(FaultSpec.parse("--faults", "alloc@staged:1,poison@scratch:1"), 1));
    SharedEngine engine = new SharedEngine(SINGLE_LOCK, dev, InterpretedPipeline::new);
    JobResult first = engine.run("gpu_worker");
    assertThat(first).isInstanceOf(JobResult.Faulted.class);
    assertThat(SharedEngine.describe(first)).isEqualTo("injected alloc at alloc staged 12GiB");
    assertThat(engine.log().events()).isNotEmpty();
    JobResult[] other = new JobResult[2];
    Thread t = new Thread(() -> {
      other[0] = engine.run("gpu_worker"); // blocks forever at lock compute_mtx if the first job kept it
      other[1] = engine.run("gpu_worker");
    });
    t.start();
    t.join();
    assertThat(other[0]).isInstanceOf(JobResult.Faulted.class); // the poison at its scratch
    assertThat(other[1]).isInstanceOf(JobResult.Completed.class);
    assertThat(dev.reopens()).isEqualTo(1);
    assertThat(engine.run("gpu_worker")).isInstanceOf(JobResult.Completed.class);
    engine.close();
    assertThat(dev.current().liveBuffers(null)).isEmpty();
  }
}
