package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.prover.Circuit;
import dev.interlock.prover.Keys;
import dev.interlock.prover.Proof;
import dev.interlock.prover.Setup;
import dev.interlock.prover.Verifier;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.field.FrElement;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.workload.CpuProvingKernels;
import dev.interlock.workload.ProvingWorkload;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Real Groth16 proofs through the engine: whatever the size, witnesses, partition count, design
 * and worker count, every proof verifies, and changing any proof element or public input makes
 * verification fail.
 */
class ProvingProperties {
  private static final int TRIES = Integer.getInteger("interlock.proving.tries", 20);
  private static final int MAX_LOG_N = Integer.getInteger("interlock.proving.maxLogN", 12);
  private static final Map<Integer, Keys> KEYS = new ConcurrentHashMap<>();

  /** A proof request: circuit size, partitions, design, workers, witness seed; and what the engine produced. */
  record Request(int logN, int partitions, String design, int workers, long seed) {}

  record Outcome(Request request, Keys keys, List<ProvingWorkload.Partition> partitions, RunReport report) {
    @Override
    public String toString() {
      return request + " -> " + report.completed() + " completed, " + report.failed() + " failed";
    }
  }

  private static Keys keys(int logN) {
    return KEYS.computeIfAbsent(logN, k -> Setup.generate(Circuit.synthetic(k, 2, 1), new SplittableRandom(k)));
  }

  private static Outcome prove(Request r) {
    Circuit circuit = Circuit.synthetic(r.logN(), 2, 1);
    Keys keys = keys(r.logN());
    SplittableRandom rng = new SplittableRandom(r.seed());
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < r.partitions(); i++) {
      parts.add(ProvingWorkload.Partition.random(i, circuit, rng.split()));
    }
    ProvingWorkload workload = new ProvingWorkload(circuit, keys.pk(), CpuProvingKernels::new, r.seed());
    Design d = Shipped.design(r.design()).withThreads("gpu_worker", r.workers());
    try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
      RunReport report = new Engine(device, StepGate.FREE).start(d, Shipped.path(r.design()),
          role -> new InterpretedPipeline(role, false, workload), Map.of("gpu_worker", parts)).await();
      return new Outcome(r, keys, parts, report);
    }
  }

  private static final Gen<Request> REQUESTS = Gen.ints(8, MAX_LOG_N).flatMap(logN -> Gen.ints(1, 6).flatMap(parts ->
      Gen.elements("single-lock", "reservation").flatMap(design -> Gen.ints(1, 4).flatMap(workers ->
          Gen.longs(0, Long.MAX_VALUE).map(seed -> new Request(logN, parts, design, workers, seed))))));

  @Test
  void everyProofMadeThroughTheEngineVerifiesAndNoTamperedOneDoes() {
    PropertyRunner.assertHolds("engine proofs verify", REQUESTS.map(ProvingProperties::prove), o -> {
      assertThat(o.report().completed()).as("all partitions complete").isEqualTo(o.request().partitions());
      assertThat(o.report().memory().live()).isZero();
      assertThat(o.report().memory().peakUsed()).isLessThanOrEqualTo(o.report().memory().capacity());
      for (JobResult j : o.report().results()) {
        Proof p = (Proof) ((JobResult.Completed) j).value();
        ProvingWorkload.Partition part = (ProvingWorkload.Partition) j.job().payload();
        List<FrElement> inputs = part.publicInputs();
        assertThat(Verifier.verify(o.keys().vk(), p, inputs)).as("partition %d verifies", part.index()).isTrue();
        assertThat(Verifier.verify(o.keys().vk(), new Proof(p.a().add(G1.generator()), p.b(), p.c()), inputs)).isFalse();
        assertThat(Verifier.verify(o.keys().vk(), new Proof(p.a(), p.b().add(G2.generator()), p.c()), inputs)).isFalse();
        assertThat(Verifier.verify(o.keys().vk(), new Proof(p.a(), p.b(), p.c().add(G1.generator())), inputs)).isFalse();
        for (int i = 0; i < inputs.size(); i++) {
          List<FrElement> changed = new ArrayList<>(inputs);
          changed.set(i, inputs.get(i).add(FrElement.ONE));
          assertThat(Verifier.verify(o.keys().vk(), p, changed)).as("public input %d changed", i).isFalse();
        }
      }
      return true;
    }, Config.defaults("engine proofs verify").withTries(TRIES));
  }
}
