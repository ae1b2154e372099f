package dev.interlock.workload;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.prover.Prover;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Bases;
import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.Ntt;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The proving kernels computed on the CPU over any {@link Device}'s buffers (a simulated device's, in practice): the
 * host's copies are kept per buffer, and each kernel, launched through the device, computes with the prover's CPU
 * code over them when it is awaited. An MSM over mostly 0/1 scalars is split as the prover's CPU msm stage splits it
 * (batch additions and a tail MSM, {@code Msm.msmSplit}).
 *
 * <p>What a buffer holds is forgotten once the device no longer has it live.
 */
public final class CpuProvingKernels implements ProvingKernels {
  private final Device device;
  /** Scalars the host copied into each buffer, one limb array per buffer (zeros where nothing was written). */
  private final Map<DeviceBuffer, long[]> scalars = new HashMap<>();
  /** G1 bases the host copied into each buffer, by byte offset. */
  private final Map<DeviceBuffer, Map<Long, G1Bases>> bases = new HashMap<>();
  /** G2 bases the host copied into each buffer, by byte offset. */
  private final Map<DeviceBuffer, Map<Long, G2Bases>> g2Bases = new HashMap<>();
  /**
   * Per table buffer and byte, the bases its MSM table was built for (their buffer, byte and points): the table's bytes
   * are the design's, its contents are not computed (an MSM with it computes as one without).
   */
  private final Map<DeviceBuffer, Map<Long, TableFor>> tables = new HashMap<>();

  /** The bases an MSM table was built for. */
  private record TableFor(DeviceBuffer bases, long basesAt, G1Bases points) {}

  public CpuProvingKernels(Device device) {
    this.device = device;
  }

  @Override
  public Device device() {
    return device;
  }

  @Override
  public synchronized void writeScalars(DeviceBuffer dst, int at, long[] src) {
    long[] limbs = scalarsOf(dst, "write to");
    int count = src.length / Fr.LIMBS;
    requireFits(dst, at, count);
    System.arraycopy(src, 0, limbs, at * Fr.LIMBS, count * Fr.LIMBS);
  }

  @Override
  public synchronized long[] readScalars(DeviceBuffer src, int at, int count) {
    long[] limbs = scalarsOf(src, "read from");
    requireFits(src, at, count);
    long[] out = new long[count * Fr.LIMBS];
    System.arraycopy(limbs, at * Fr.LIMBS, out, 0, out.length);
    return out;
  }

  @Override
  public synchronized void writeBases(DeviceBuffer dst, long at, G1Bases points) {
    requireLive(dst, "write to");
    if (at < 0 || at + (long) points.size() * G1_AFFINE_BYTES > dst.bytes()) {
      throw new IllegalArgumentException(points.size() + " G1 bases at byte " + at + " need " + (at + points.size() * G1_AFFINE_BYTES)
          + " bytes, buffer " + dst.name() + " has " + dst.bytes());
    }
    bases.computeIfAbsent(dst, k -> new HashMap<>()).put(at, points);
    g2Bases.computeIfPresent(dst, (k, m) -> { m.remove(at); return m; });
    forgetTablesOf(dst, at);
  }

  /** Forgets the tables built for the bases at byte {@code at} of {@code b} (they were just rewritten). */
  private void forgetTablesOf(DeviceBuffer b, long at) {
    tables.values().forEach(m -> m.values().removeIf(t -> t.bases().equals(b) && t.basesAt() == at));
  }

  /** Records the table; checks the bases are there and that the table's bytes fit, as a device's build would. */
  @Override
  public KernelRun msmTable(String owner, DeviceBuffer basesBuffer, long basesAt, DeviceBuffer table, long tableAt, int copies) {
    return device.launch(owner, "msm_table", List.of(basesBuffer, table), () -> {
      synchronized (this) {
        G1Bases b = g1BasesAt(basesBuffer, basesAt);
        long bytes = tableBytes(b.size(), copies);
        if (tableAt < 0 || tableAt + bytes > table.bytes()) {
          throw new IllegalArgumentException("an MSM table of " + b.size() + " bases, " + copies + " copies, at byte " + tableAt
              + " needs " + (tableAt + bytes) + " bytes, buffer " + table.name() + " has " + table.bytes());
        }
        requireLive(table, "build a table in");
        tables.computeIfAbsent(table, k -> new HashMap<>()).put(tableAt, new TableFor(basesBuffer, basesAt, b));
      }
    });
  }

  @Override
  public MsmRun<G1> msm(String owner, DeviceBuffer basesBuffer, long basesAt, DeviceBuffer scalarsBuffer, int scalarsAt,
      DeviceBuffer table, long tableAt) {
    G1[] result = new G1[1];
    KernelRun run = device.launch(owner, "msm", List.of(basesBuffer, scalarsBuffer, table), () -> {
      G1Bases b;
      synchronized (this) {
        b = g1BasesAt(basesBuffer, basesAt);
        requireLive(table, "read a table from");
        TableFor t = tables.getOrDefault(table, Map.of()).get(tableAt);
        if (t == null || !t.bases().equals(basesBuffer) || t.basesAt() != basesAt || t.points() != b) {
          throw new IllegalStateException("buffer " + table.name() + " holds no MSM table at byte " + tableAt + " of the bases of "
              + basesBuffer.name() + " at byte " + basesAt);
        }
      }
      result[0] = g1Msm(b, scalarsBuffer, scalarsAt);
    });
    return MsmRun.of(run, () -> result[0]);
  }

  /** The G1 MSM of bases b with the scalars at element {@code scalarsAt} of the buffer: the plain MSM unless mostly 0/1. */
  private G1 g1Msm(G1Bases b, DeviceBuffer scalarsBuffer, int scalarsAt) {
    long[] mont = readScalars(scalarsBuffer, scalarsAt, b.size());
    return Msm.msmSplit(b, Fr.toCanonical(mont, 0, b.size()));
  }

  /** The G1 bases written at byte {@code at} of {@code b}. */
  private G1Bases g1BasesAt(DeviceBuffer b, long at) {
    G1Bases found = bases.getOrDefault(b, Map.of()).get(at);
    if (found == null) {
      throw new IllegalStateException("buffer " + b.name() + " holds no G1 bases at byte " + at);
    }
    return found;
  }

  @Override
  public synchronized void writeG2Bases(DeviceBuffer dst, long at, G2Bases points) {
    requireLive(dst, "write to");
    if (at < 0 || at + (long) points.size() * G2_AFFINE_BYTES > dst.bytes()) {
      throw new IllegalArgumentException(points.size() + " G2 bases at byte " + at + " need " + (at + points.size() * G2_AFFINE_BYTES)
          + " bytes, buffer " + dst.name() + " has " + dst.bytes());
    }
    g2Bases.computeIfAbsent(dst, k -> new HashMap<>()).put(at, points);
    bases.computeIfPresent(dst, (k, m) -> { m.remove(at); return m; });
    forgetTablesOf(dst, at);
  }

  /** The G2 MSM with blst on the host's cores, split as the prover's b_g2_msm splits it when mostly 0/1. */
  @Override
  public MsmRun<G2> g2Msm(String owner, DeviceBuffer basesBuffer, long basesAt, DeviceBuffer scalarsBuffer, int scalarsAt) {
    G2[] result = new G2[1];
    KernelRun run = device.launch(owner, "g2_msm", List.of(basesBuffer, scalarsBuffer), () -> {
      G2Bases b;
      synchronized (this) {
        b = g2Bases.getOrDefault(basesBuffer, Map.of()).get(basesAt);
        if (b == null) {
          throw new IllegalStateException("buffer " + basesBuffer.name() + " holds no G2 bases at byte " + basesAt);
        }
      }
      long[] mont = readScalars(scalarsBuffer, scalarsAt, b.size());
      result[0] = Msm.msmSplit(b, Fr.toCanonical(mont, 0, b.size()));
    });
    return MsmRun.of(run, () -> result[0]);
  }

  @Override
  public KernelRun ntt(String owner, DeviceBuffer data, int at, int logN, NttKind kind) {
    return device.launch(owner, "ntt", List.of(data), () -> {
      long[] v = readScalars(data, at, 1 << logN);
      if (kind.inverse()) {
        if (kind.coset()) {
          Ntt.cosetInverse(v, logN);
        } else {
          Ntt.inverse(v, logN);
        }
      } else if (kind.coset()) {
        Ntt.cosetForward(v, logN);
      } else {
        Ntt.forward(v, logN);
      }
      writeScalars(data, at, v);
    });
  }

  @Override
  public KernelRun quotient(String owner, DeviceBuffer abc, int at, int logN, DeviceBuffer h) {
    return device.launch(owner, "quotient", List.of(abc, h), () -> {
      int n = 1 << logN;
      long[] a = readScalars(abc, at, n);
      long[] b = readScalars(abc, at + n, n);
      long[] c = readScalars(abc, at + 2 * n, n);
      writeScalars(h, 0, Prover.quotient(a, b, c, logN));
    });
  }

  @Override
  public MsmRun<G1> msm(String owner, DeviceBuffer basesBuffer, long basesAt, DeviceBuffer scalarsBuffer, int scalarsAt) {
    G1[] result = new G1[1];
    KernelRun run = device.launch(owner, "msm", List.of(basesBuffer, scalarsBuffer), () -> {
      G1Bases b;
      synchronized (this) {
        b = g1BasesAt(basesBuffer, basesAt);
      }
      result[0] = g1Msm(b, scalarsBuffer, scalarsAt);
    });
    return MsmRun.of(run, () -> result[0]);
  }

  /** Drops what freed buffers held, then checks that {@code b} is live. */
  private void requireLive(DeviceBuffer b, String what) {
    scalars.keySet().removeIf(k -> !device.isLive(k));
    bases.keySet().removeIf(k -> !device.isLive(k));
    g2Bases.keySet().removeIf(k -> !device.isLive(k));
    tables.keySet().removeIf(k -> !device.isLive(k));
    tables.values().forEach(m -> m.values().removeIf(t -> !device.isLive(t.bases())));
    if (b == null || !device.isLive(b)) {
      throw new BufferNotLiveException(ViolationKind.USE_AFTER_FREE, what + " a buffer that is not live: " + b);
    }
  }

  private static void requireFits(DeviceBuffer b, int at, int count) {
    if (at < 0 || count < 0 || (long) (at + count) * SCALAR_BYTES > b.bytes()) {
      throw new IllegalArgumentException("scalars " + at + ".." + (at + count) + " do not fit in buffer " + b.name() + " of "
          + b.bytes() + " bytes");
    }
  }

  /** The buffer's scalar contents, made on first use (zeros, like fresh device memory in practice). */
  private long[] scalarsOf(DeviceBuffer b, String what) {
    requireLive(b, what);
    long[] existing = scalars.get(b);
    if (existing != null) {
      return existing;
    }
    long elements = b.bytes() / SCALAR_BYTES;
    if (elements * Fr.LIMBS > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("the simulated device holds at most " + ((Integer.MAX_VALUE - 8L) / Fr.LIMBS)
          + " scalars per buffer; " + b.name() + " would hold " + elements);
    }
    long[] limbs = new long[(int) elements * Fr.LIMBS];
    scalars.put(b, limbs);
    return limbs;
  }
}
