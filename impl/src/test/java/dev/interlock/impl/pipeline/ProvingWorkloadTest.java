package dev.interlock.impl.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.groth16.Circuit;
import dev.interlock.impl.groth16.Keys;
import dev.interlock.impl.groth16.Proof;
import dev.interlock.impl.groth16.Setup;
import dev.interlock.impl.groth16.Verifier;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Real proofs behind a design's steps: they verify, and the device memory they take is the formula's. */
class ProvingWorkloadTest {
  private static final Circuit CIRCUIT = Circuit.synthetic(8, 2, 1);
  private static final Keys KEYS = Setup.generate(CIRCUIT, new SplittableRandom(8));

  private static RunReport run(String design, int workers, long vram, int partitions, ProvingWorkload workload) {
    SplittableRandom rng = new SplittableRandom(3);
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < partitions; i++) {
      parts.add(ProvingWorkload.Partition.random(i, CIRCUIT, rng.split()));
    }
    return run(design, workers, vram, parts, workload);
  }

  private static RunReport run(String design, int workers, long vram, List<ProvingWorkload.Partition> parts,
      ProvingWorkload workload) {
    Design d = TestDesigns.shipped(design).withThreads("gpu_worker", workers).withVram(vram);
    try (SimulatedDevice device = new SimulatedDevice(vram)) {
      return new Engine(device, StepGate.FREE).start(d, design, r -> new InterpretedPipeline(r, false, workload),
          Map.of("gpu_worker", parts)).await();
    }
  }

  @Test
  void oneWorkerPeaksAtExactlyOnePartitionsBytesAndEveryProofVerifies() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), 1);
    RunReport r = run("single-lock", 1, 1L << 30, 3, w);
    assertThat(r.memory().peakUsed()).isEqualTo(w.stagedBytes() + w.scratchBytes());
    assertThat(r.completed()).isEqualTo(3);
    for (JobResult j : r.results()) {
      ProvingWorkload.Partition p = (ProvingWorkload.Partition) j.job().payload();
      assertThat(Verifier.verify(KEYS.vk(), (Proof) ((JobResult.Completed) j).value(), p.publicInputs())).isTrue();
    }
    assertThat(w.stageMillis()).containsOnlyKeys("synthesize", "stage", "ntt_h", "msm", "b_g2_msm", "epilogue");
  }

  @Test
  void aDeviceTooSmallForOnePartitionFailsEveryJobWithOomAtStaging() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), 1);
    RunReport r = run("single-lock", 2, w.stagedBytes() - 1, 4, w);
    assertThat(r.results()).hasSize(4).allSatisfy(j -> {
      assertThat(j).isInstanceOf(JobResult.Failed.class);
      JobResult.Failed f = (JobResult.Failed) j;
      assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
      assertThat(f.step()).isEqualTo("alloc staged 12GiB");
    });
    assertThat(r.memory().live()).isZero();
  }

  @Test
  void reservationProvesWithSeveralWorkers() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), 2);
    RunReport r = run("reservation", 3, 16L << 30, 5, w);
    assertThat(r.completed()).isEqualTo(5);
    assertThat(r.memory().peakUsed()).isLessThanOrEqualTo(3 * (w.stagedBytes() + w.scratchBytes()));
  }

  @Test
  void reusedHostWorkIsComputedOnceAndEveryProofStillVerifiesWithItsOwnRandomizers() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), 4, true);
    ProvingWorkload.Partition shared = ProvingWorkload.Partition.random(0, CIRCUIT, new SplittableRandom(5));
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      parts.add(new ProvingWorkload.Partition(i, shared.publicInputs(), shared.privateSeeds()));
    }
    RunReport r = run("reservation", 3, 16L << 30, parts, w);
    assertThat(r.completed()).isEqualTo(6);
    List<Proof> proofs = new ArrayList<>();
    for (JobResult j : r.results()) {
      Proof p = (Proof) ((JobResult.Completed) j).value();
      assertThat(Verifier.verify(KEYS.vk(), p, shared.publicInputs())).isTrue();
      proofs.add(p);
    }
    assertThat(proofs).doesNotHaveDuplicates();
    assertThat(w.stageMillis().get("synthesize")).hasSize(1);
    assertThat(w.stageMillis().get("b_g2_msm")).hasSize(1);
    assertThat(w.stageMillis().get("stage")).hasSize(6);
    assertThat(w.stageMillis().get("msm")).hasSize(6);
  }
}
