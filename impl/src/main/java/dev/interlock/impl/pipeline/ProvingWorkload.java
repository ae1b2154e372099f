package dev.interlock.impl.pipeline;

import dev.interlock.impl.device.Device;
import dev.interlock.impl.device.DeviceBuffer;
import dev.interlock.impl.device.KernelRun;
import dev.interlock.impl.engine.Job;
import dev.interlock.impl.groth16.Circuit;
import dev.interlock.impl.groth16.MsmResults;
import dev.interlock.impl.groth16.PartitionSizes;
import dev.interlock.impl.groth16.Proof;
import dev.interlock.impl.groth16.Prover;
import dev.interlock.impl.groth16.ProvingKey;
import dev.interlock.impl.groth16.Synthesized;
import dev.interlock.impl.groth16.Witness;
import dev.interlock.impl.groth16.curve.G1;
import dev.interlock.impl.groth16.curve.G2;
import dev.interlock.impl.groth16.field.Fr;
import dev.interlock.impl.groth16.field.FrElement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.random.RandomGenerator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Groth16 partition proofs as the work behind a design's steps, in cuzk's stages.
 *
 * <p>Bindings: {@code cpu synthesize} computes the a, b, c evaluations; buffer {@code staged} is
 * sized for a, b, c, the witness scalars and the four G1 queries, {@code scratch} for H (see
 * {@link PartitionSizes}); {@code kernel stage} (or {@code h2d}) copies them to the device;
 * {@code kernel ntt_h} computes H on the device (its quotient kernel: six NTTs, a pointwise step and
 * one more NTT); {@code kernel msm} the four G1 MSMs; {@code kernel ntt_msm} all three; the G2 MSM starts on a thread of its own when synthesis ends,
 * as cuzk starts b_g2_msm before the GPU lock, and {@code cpu b_g2_msm} joins it; {@code cpu
 * epilogue} draws the randomizers and assembles the proof, which is the job's result.
 *
 * <p>Staged layout: scalars a at 0, b at N, c at 2N, the witness at 3N (elements of 32 bytes),
 * then from byte (3N + m)·32 the a, b_g1, l and h queries (96 bytes a point).
 */
public final class ProvingWorkload implements Workload {
  /**
   * One partition of a proof request: its index, public inputs and private seeds; synthesis
   * computes the rest of the witness from them.
   */
  public record Partition(int index, List<FrElement> publicInputs, List<FrElement> privateSeeds) {
    public Partition {
      publicInputs = List.copyOf(publicInputs);
      privateSeeds = List.copyOf(privateSeeds);
    }

    /** A partition with random inputs and seeds for {@code circuit}. */
    public static Partition random(int index, Circuit circuit, RandomGenerator rng) {
      List<FrElement> inputs = new ArrayList<>();
      for (int i = 0; i < circuit.publicInputs(); i++) {
        inputs.add(FrElement.random(rng));
      }
      List<FrElement> seeds = new ArrayList<>();
      for (int i = 0; i < Circuit.PRIVATE_SEEDS; i++) {
        seeds.add(FrElement.random(rng));
      }
      return new Partition(index, inputs, seeds);
    }
  }

  private final Circuit circuit;
  private final ProvingKey pk;
  private final PartitionSizes sizes;
  private final long seed;
  private final int n;
  private final int m;
  private final Map<String, List<Double>> stageMillis = new ConcurrentHashMap<>();
  private final boolean reuseHostWork;
  /**
   * With reuseHostWork: each distinct partition input's synthesis and G2 MSM, computed by the first job to need it.
   * Kept for the workload's life (a benchmark's few distinct inputs; a failed entry stays failed).
   */
  private final Map<List<List<FrElement>>, CompletableFuture<HostWork>> hostWork = new ConcurrentHashMap<>();

  /** What synthesis hands on: the witness, its a, b, c and the G2 MSM started from it. */
  private record HostWork(Witness witness, Synthesized synthesized, Future<G2> bG2) {}

  /** A workload proving partitions of {@code circuit} with {@code pk}; {@code seed} seeds the randomizers r, s. */
  public ProvingWorkload(Circuit circuit, ProvingKey pk, long seed) {
    this(circuit, pk, seed, false);
  }

  /**
   * As {@link #ProvingWorkload(Circuit, ProvingKey, long)}; with {@code reuseHostWork}, partitions with equal inputs
   * share one synthesis and one G2 MSM (the first job computes them, later ones wait for and reuse them).
   *
   * <p>A benchmark knob: with every partition given the same inputs, the CPU stages leave the critical path and the
   * GPU section (staging, ntt_h, msm, under the design's locks) bounds throughput, the regime in which designs that
   * overlap one worker's staging with another's kernels can differ. Every proof is still made and verifies
   * (its own randomizers; the GPU work is done per partition).
   */
  public ProvingWorkload(Circuit circuit, ProvingKey pk, long seed, boolean reuseHostWork) {
    if (!pk.params().equals(circuit.params())) {
      throw new IllegalArgumentException("proving key is for " + pk.params() + ", circuit is " + circuit.params());
    }
    this.circuit = circuit;
    this.pk = pk;
    this.sizes = PartitionSizes.of(circuit);
    this.seed = seed;
    this.n = circuit.size();
    this.m = circuit.numVariables();
    this.reuseHostWork = reuseHostWork;
  }

  /**
   * Wall milliseconds of each stage run so far (synthesize, stage, ntt_h, msm, b_g2_msm, epilogue),
   * one entry per partition: the stages inside a combined kernel such as ntt_msm are timed apart.
   */
  public Map<String, List<Double>> stageMillis() {
    Map<String, List<Double>> copy = new LinkedHashMap<>();
    for (String stage : List.of("synthesize", "stage", "ntt_h", "msm", "b_g2_msm", "epilogue")) {
      List<Double> l = stageMillis.get(stage);
      if (l != null) {
        synchronized (l) {
          copy.put(stage, List.copyOf(l));
        }
      }
    }
    return copy;
  }

  private void timed(String stage, Runnable r) {
    long t = System.nanoTime();
    r.run();
    record(stage, t);
  }

  private void record(String stage, long startNanos) {
    List<Double> l = stageMillis.computeIfAbsent(stage, k -> new ArrayList<>());
    synchronized (l) {
      l.add((System.nanoTime() - startNanos) / 1e6);
    }
  }

  /**
   * The G2 MSM of a job, started on its own thread when synthesis ends (as cuzk starts b_g2_msm
   * before taking the GPU lock) and joined where the design places {@code cpu b_g2_msm}.
   */
  private static G2 join(State s) {
    require(s.bG2Task != null, "b_g2_msm before synthesize");
    return awaitBG2(s.bG2Task);
  }

  /** The G2 MSM's result once it is done; its failure, or an interrupt, as IllegalStateException. */
  private static G2 awaitBG2(Future<G2> task) {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for b_g2_msm", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("b_g2_msm failed: " + e.getCause(), e.getCause());
    }
  }

  /** Daemon threads for the G2 MSMs, one per job in flight. */
  private static final ExecutorService B_G2_THREADS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "b_g2_msm");
    t.setDaemon(true);
    return t;
  });

  /** Bytes of the staged buffer: a, b, c, witness and the G1 queries. */
  public long stagedBytes() {
    return sizes.totalBytes() - sizes.hScratchBytes();
  }

  /** Bytes of the scratch buffer: H. */
  public long scratchBytes() {
    return sizes.hScratchBytes();
  }

  /** A job's progress through the stages. */
  private final class State implements JobState {
    final Partition partition;
    final SplittableRandom rng;
    Witness witness;
    Future<G2> bG2Task;
    Synthesized synthesized;
    boolean staged;
    boolean hOnDevice;
    MsmResults msm;
    G2 bG2;
    Proof proof;

    State(Partition partition) {
      this.partition = partition;
      this.rng = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + partition.index());
    }

    @Override
    public Object result() {
      return proof;
    }
  }

  @Override
  public JobState start(Job job) {
    if (!(job.payload() instanceof Partition p)) {
      throw new IllegalArgumentException("job " + job.id() + " carries no partition: " + job.payload());
    }
    return new State(p);
  }

  @Override
  public long bytes(String buffer, long designBytes) {
    return switch (buffer) {
      case "staged" -> stagedBytes();
      case "scratch" -> scratchBytes();
      default -> designBytes;
    };
  }

  @Override
  public void cpu(String name, JobState js) {
    State s = (State) js;
    switch (name) {
      case "synthesize" -> {
        HostWork h = reuseHostWork ? shared(s.partition) : synthesize(s.partition);
        s.witness = h.witness();
        s.synthesized = h.synthesized();
        s.bG2Task = h.bG2();
      }
      case "b_g2_msm" -> s.bG2 = join(s);
      case "epilogue" -> {
        require(s.msm != null, "epilogue before msm");
        if (s.bG2 == null) {
          s.bG2 = join(s);
        }
        timed(name, () -> s.proof = Prover.epilogue(pk, s.msm, s.bG2, s.rng));
      }
      default -> {
        // other CPU intervals of a design carry no proving work
      }
    }
  }

  /** Synthesis of a partition (timed), with its G2 MSM started on a thread of its own. */
  private HostWork synthesize(Partition p) {
    long t0 = System.nanoTime();
    Witness w = circuit.witness(p.publicInputs(), p.privateSeeds());
    Synthesized syn = Prover.synthesize(circuit, w);
    record("synthesize", t0);
    Future<G2> bG2 = B_G2_THREADS.submit(() -> {
      long t = System.nanoTime();
      G2 r = Prover.bG2Msm(pk, w);
      record("b_g2_msm", t);
      return r;
    });
    return new HostWork(w, syn, bG2);
  }

  /**
   * With reuseHostWork: computes p's inputs' synthesis and G2 MSM now and waits for both, so that a run started
   * afterwards reuses them from its first partition on and its wall clock covers the GPU-bound regime only (otherwise
   * every worker's first partition waits in b_g2_msm for the one shared G2 MSM, with the GPU idle).
   */
  public void prepare(Partition p) {
    if (!reuseHostWork) {
      throw new IllegalStateException("prepare needs a workload that reuses host work");
    }
    awaitBG2(shared(p).bG2());
  }

  /** The host work for p's inputs: computed here if no job has started it, else the other job's (waited for). */
  private HostWork shared(Partition p) {
    CompletableFuture<HostWork> mine = new CompletableFuture<>();
    CompletableFuture<HostWork> first = hostWork.putIfAbsent(List.of(p.publicInputs(), p.privateSeeds()), mine);
    if (first != null) {
      try {
        return first.join();
      } catch (CompletionException e) {
        throw new IllegalStateException(
            "partition " + p.index() + ": the shared synthesis of its inputs failed in another job: " + e.getCause(), e.getCause());
      }
    }
    try {
      HostWork h = synthesize(p);
      mine.complete(h);
      return h;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    }
  }

  @Override
  public KernelRun kernel(String name, String owner, Device device, List<DeviceBuffer> uses, Map<String, DeviceBuffer> buffers,
      JobState js) {
    State s = (State) js;
    return device.launch(owner, name, uses, () -> {
      switch (name) {
        case "stage", "h2d" -> stage(device, buffers, s);
        case "ntt_h" -> nttH(device, owner, buffers, s);
        case "msm" -> msm(device, owner, buffers, s);
        case "ntt_msm" -> {
          nttH(device, owner, buffers, s);
          msm(device, owner, buffers, s);
        }
        default -> {
          // other kernels of a design carry no proving work
        }
      }
    });
  }

  private static void require(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("proving stages out of order: " + what);
    }
  }

  private static DeviceBuffer buffer(Map<String, DeviceBuffer> buffers, String name) {
    DeviceBuffer b = buffers.get(name);
    require(b != null, "buffer " + name + " is not allocated");
    return b;
  }

  /** Copies a, b, c, the witness and the G1 queries into the staged buffer. */
  private void stage(Device device, Map<String, DeviceBuffer> buffers, State s) {
    if (s.staged) {
      return;
    }
    timed("stage", () -> upload(device, buffers, s));
  }

  private void upload(Device device, Map<String, DeviceBuffer> buffers, State s) {
    require(s.synthesized != null, "stage before synthesize");
    DeviceBuffer staged = buffer(buffers, "staged");
    device.writeScalars(staged, 0, s.synthesized.a());
    device.writeScalars(staged, n, s.synthesized.b());
    device.writeScalars(staged, 2 * n, s.synthesized.c());
    long[] w = Fr.newVector(m);
    for (int i = 0; i < m; i++) {
      s.witness.get(i).writeTo(w, i);
    }
    device.writeScalars(staged, 3 * n, w);
    device.writeBases(staged, aOffset(), pk.aQuery());
    device.writeBases(staged, bOffset(), pk.bG1Query());
    device.writeBases(staged, lOffset(), pk.lQuery());
    device.writeBases(staged, hOffset(), pk.hQuery());
    s.staged = true;
  }

  private long aOffset() {
    return (3L * n + m) * Device.SCALAR_BYTES;
  }

  private long bOffset() {
    return aOffset() + sizes.aBasesBytes();
  }

  private long lOffset() {
    return bOffset() + sizes.bG1BasesBytes();
  }

  private long hOffset() {
    return lOffset() + sizes.lBasesBytes();
  }

  /**
   * ntt_h: H from the staged a, b, c by the device's quotient kernel, into scratch; its top coefficient is read back
   * to check that the witness satisfies the circuit.
   */
  private void nttH(Device device, String owner, Map<String, DeviceBuffer> buffers, State s) {
    stage(device, buffers, s);
    DeviceBuffer staged = buffer(buffers, "staged");
    DeviceBuffer scratch = buffer(buffers, "scratch");
    timed("ntt_h", () -> {
      device.quotient(owner, staged, 0, circuit.logN(), scratch).await();
      Prover.requireDivisible(device.readScalars(scratch, n - 1, 1), 0);
      s.hOnDevice = true;
    });
  }

  /** msm: the four G1 MSMs as device kernels over the staged queries, the staged witness and H in scratch. */
  private void msm(Device device, String owner, Map<String, DeviceBuffer> buffers, State s) {
    require(s.hOnDevice, "msm before ntt_h");
    DeviceBuffer staged = buffer(buffers, "staged");
    DeviceBuffer scratch = buffer(buffers, "scratch");
    timed("msm", () -> {
      G1 a = device.msm(owner, staged, aOffset(), staged, 3 * n).result();
      G1 bG1 = device.msm(owner, staged, bOffset(), staged, 3 * n).result();
      G1 l = device.msm(owner, staged, lOffset(), staged, 3 * n + circuit.publicInputs() + 1).result();
      G1 h = device.msm(owner, staged, hOffset(), scratch, 0).result();
      s.msm = new MsmResults(a, bG1, l, h);
    });
  }
}
