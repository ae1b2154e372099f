package dev.interlock.model.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulation against closed forms: one worker, a lock's serial bound, a CPU-bound design, the GPU's queue. */
class SimulatorTest {
  private static final Machine MACHINE = Machine.withCores(16);

  private static SimRun run(Design d, Machine m) {
    return Simulator.run(d, m, StepTimes.of(d, Map.of()), 1);
  }

  @Test
  void oneWorkerTakesTheSumOfItsSteps() {
    Design d = TestDesigns.parse("""
        design one
        vram 16GiB
        mutex m
        role w x1 jobs 3
          cpu synth for 100ms
          lock m
          alloc a 4GiB
          kernel k uses a for 200ms
          free a
          unlock m
          cpu post for 50ms
        """);
    SimRun r = run(d, MACHINE);
    assertThat(r.stop()).isEmpty();
    assertThat(r.jobs()).isEqualTo(3);
    assertThat(r.seconds()).isCloseTo(3 * 0.35, within(1e-9));
    assertThat(r.jobSeconds()).allSatisfy(x -> assertThat(x).isCloseTo(0.35, within(1e-9)));
    assertThat(r.gpuBusySeconds()).isCloseTo(0.6, within(1e-9));
    assertThat(r.holdSeconds().get("m")).hasSize(3).allSatisfy(x -> assertThat(x).isCloseTo(0.2, within(1e-9)));
    assertThat(r.waitSeconds().get("m")).containsExactly(0.0, 0.0, 0.0);
    assertThat(r.peakLiveBytes()).isEqualTo(4L << 30);
    assertThat(r.jobsPerMinute()).isCloseTo(3 / 1.05 * 60, within(1e-6));
  }

  @Test
  void workersBehindOneLockGetItsSerialBound() {
    Design d = TestDesigns.parse("""
        design serial
        vram 16GiB
        mutex m
        role w x4 jobs 5
          lock m
          cpu work for 100ms
          unlock m
        """);
    SimRun r = run(d, MACHINE);
    assertThat(r.seconds()).isCloseTo(4 * 5 * 0.1, within(1e-9));
    assertThat(r.jobsPerMinute()).isCloseTo(600, within(1e-6)); // one job per 100ms, whatever the workers
    assertThat(r.holdSeconds().get("m")).hasSize(20).allSatisfy(x -> assertThat(x).isCloseTo(0.1, within(1e-9)));
    assertThat(r.waitSeconds().get("m").stream().mapToDouble(Double::doubleValue).max().orElseThrow()).isPositive();
  }

  @Test
  void aDesignBoundByHostCoresGetsTheirBound() {
    Design d = TestDesigns.parse("""
        design cores
        vram 16GiB
        role w x4 jobs 3
          cpu synth for 1s
        """);
    assertThat(run(d, Machine.withCores(2)).seconds()).isCloseTo(4 * 3 * 1.0 / 2, within(1e-9));
    assertThat(run(d, Machine.withCores(4)).seconds()).isCloseTo(3.0, within(1e-9));
    assertThat(run(d, Machine.withCores(16)).seconds()).isCloseTo(3.0, within(1e-9));
  }

  @Test
  void cpuStepsShareTheCoresByTheirWidths() {
    Design d = TestDesigns.parse("""
        design wide
        vram 16GiB
        role w x2 jobs 1
          cpu synth for 1s
        """);
    StepTimes eight = StepTimes.of(d, Map.of()).withCores(Map.of("synth", 8.0));
    // two steps of 8 cores on 16: each at full speed; on 8 cores: each at half speed; alone on 4 cores: half speed too
    assertThat(Simulator.run(d, Machine.withCores(16), eight, 1).seconds()).isCloseTo(1.0, within(1e-9));
    assertThat(Simulator.run(d, Machine.withCores(8), eight, 1).seconds()).isCloseTo(2.0, within(1e-9));
    assertThat(Simulator.run(d.withThreads("w", 1), Machine.withCores(4), eight, 1).seconds()).isCloseTo(2.0, within(1e-9));
    // a short and a long step of 8 cores each on 8: both at half speed until the short one ends, then the long one alone
    Design mixed = TestDesigns.parse("""
        design mixed
        vram 16GiB
        role a x1 jobs 1
          cpu short for 1s
        role b x1 jobs 1
          cpu long for 3s
        """);
    StepTimes both = StepTimes.of(mixed, Map.of()).withCores(Map.of("short", 8.0, "long", 8.0));
    SimRun r = Simulator.run(mixed, Machine.withCores(8), both, 1);
    assertThat(r.jobSeconds()).hasSize(2);
    assertThat(r.jobSeconds().get(0)).isCloseTo(2.0, within(1e-9)); // 1 s of work at half speed
    assertThat(r.seconds()).isCloseTo(4.0, within(1e-9)); // 1 s of long's work by then, 2 s more alone
  }

  @Test
  void kernelsOfDifferentWorkersQueueForTheGpuUnlessItSharesThem() {
    Design d = TestDesigns.parse("""
        design gpu
        vram 16GiB
        role w x2 jobs 1
          kernel k for 1s
        """);
    SimRun serial = run(d, MACHINE);
    assertThat(serial.seconds()).isCloseTo(2.0, within(1e-9));
    assertThat(serial.gpuBusySeconds()).isCloseTo(2.0, within(1e-9));
    SimRun shared = run(d, new Machine(16, 2, 1.5));
    // the first starts alone (1 s), the second beside it (1.5 s): both done at 1.5 s
    assertThat(shared.seconds()).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void aCopyTakesItsBytesOverTheBandwidthOnTheCopyEngineBesideTheKernels() {
    Design d = TestDesigns.parse("""
        design copies
        vram 64GiB
        role w x2 jobs 1
          alloc staged 12GiB
          kernel h2d uses staged
          kernel k uses staged for 1s
          free staged
        """);
    StepTimes untimed = StepTimes.of(d, Map.of());
    assertThat(Simulator.run(d, MACHINE, untimed, 1).seconds()).isCloseTo(2.0, within(1e-9));
    StepTimes copy = untimed.withCopy(d, "h2d", 12.0 * (1L << 30)); // 12 GiB at 12 GiB/s: 1 s
    assertThat(copy.of("h2d")).contains(new Timing.Fixed(1.0));
    assertThat(copy.untimed()).isEmpty();
    // copies one at a time (0-1, 1-2), the second beside the first one's kernel (1-2), then its own kernel (2-3)
    SimRun r = Simulator.run(d, MACHINE, copy, 1);
    assertThat(r.seconds()).isCloseTo(3.0, within(1e-9));
    assertThat(r.gpuBusySeconds()).as("copies are not kernel time").isCloseTo(2.0, within(1e-9));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> untimed.withCopy(d, "k2", 1e9))
        .hasMessageContaining("no kernel step named 'k2'");
  }

  @Test
  void anUnsafeDesignsRunStopsAtItsViolationWithNoThroughput() {
    Design d = TestDesigns.shipped("two-lock").withThreads("gpu_worker", 3);
    // every worker synthesizes for 0.1 s; the first then holds 14 GiB through its kernel while the next stages 12 GiB
    StepTimes times = StepTimes.of(d, Map.of("synthesize", new Timing.Fixed(0.1), "ntt_msm", new Timing.Fixed(1)));
    for (long seed = 1; seed <= 3; seed++) {
      SimRun r = Simulator.run(d, MACHINE, times, seed);
      assertThat(r.stop()).isPresent();
      assertThat(r.stop().get().kind()).isEqualTo(ViolationKind.OOM);
      assertThat(r.stop().get().seconds()).isCloseTo(0.1, within(1e-9));
      assertThat(r.stop().get().message()).contains("12GiB");
      assertThat(r.jobsPerMinute()).isZero();
      assertThat(r.jobs()).isZero();
    }
  }

  @Test
  void theSeedReproducesARunAndSampledTimesVary() {
    Design d = TestDesigns.parse("""
        design sampled
        vram 16GiB
        mutex m
        role w x3 jobs 4
          cpu synth
          lock m
          kernel k
          unlock m
        """);
    StepTimes times = StepTimes.of(d, Map.of("synth", new Timing.Samples(new double[] {0.1, 0.3}),
        "k", new Timing.Samples(new double[] {0.05, 0.2})));
    SimRun a = Simulator.run(d, MACHINE, times, 7);
    assertThat(Simulator.run(d, MACHINE, times, 7)).isEqualTo(a);
    assertThat(List.of(8L, 9L, 10L, 11L).stream().map(seed -> Simulator.run(d, MACHINE, times, seed).seconds()))
        .anySatisfy(x -> assertThat(x).isNotEqualTo(a.seconds()));
    assertThat(StepTimes.of(d, Map.of()).untimed()).containsExactly("synth", "k");
  }

  @Test
  void aSweepSummarizesEachCountWithAConfidenceInterval() {
    Design d = TestDesigns.shipped("single-lock");
    StepTimes times = StepTimes.of(d, Map.of("synthesize", new Timing.Samples(new double[] {0.4, 0.6}),
        "ntt_msm", new Timing.Fixed(0.3), "b_g2_msm", new Timing.Fixed(0.2), "epilogue", new Timing.Fixed(0.05)));
    List<Simulation.Point> points = Simulation.sweep(d, new Simulation.Plan("gpu_worker", List.of(1, 2, 3), 4, 3, 1),
        MACHINE, times);
    assertThat(points).extracting(Simulation.Point::workers).containsExactly(1, 2, 3);
    assertThat(points).allSatisfy(p -> {
      assertThat(p.runs()).hasSize(3);
      assertThat(p.stop()).isEmpty();
      assertThat(p.jobsPerMinuteCi95()).isGreaterThanOrEqualTo(0);
    });
    // one worker: a job per 0.5 + 0.3 + 0.25 s on average; more workers overlap, up to the lock's bound of one per 0.3 s
    assertThat(points.get(0).jobsPerMinute()).isCloseTo(60 / 1.05, within(6.0));
    assertThat(points.get(1).jobsPerMinute()).isGreaterThan(points.get(0).jobsPerMinute() * 1.3);
    assertThat(points.get(2).jobsPerMinute()).isLessThanOrEqualTo(60 / 0.3 + 1e-9);
    assertThat(points.get(0).holdMedian().get("compute_mtx").orElseThrow()).isCloseTo(0.3, within(1e-9));
    assertThat(points.get(0).gpuBusyFraction()).isCloseTo(0.3 / 1.05, within(0.05));
    assertThat(Simulation.ci95(new double[] {1, 2, 3})).isCloseTo(4.303 * 1 / Math.sqrt(3), within(1e-9));
    assertThat(Simulation.quantile(new double[] {1, 2, 3, 4}, 0.5)).isEqualTo(2);
  }
}
