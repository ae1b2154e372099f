package dev.interlock.workload;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.prover.G1FixedBase;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Bases;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@link ProvingKernels} with injected faults: the kernels of the wrapped ones, launched through a {@link FaultyDevice}
 * over their device, so an NTT, ntt_h, MSM or G2 MSM gets the kernel, stall and poison faults a design kernel gets, and a copy
 * to or from a poisoned device fails.
 *
 * <p>Why a wrapper of the kernels, not only of the device: the proving kernels launch on their own device (a
 * CudaDevice's CudaProvingKernels are opened with it), with that device's buffers; this translates the engine's handles and, after a poison, opens new kernels
 * (for CUDA: a new context) together with their device.
 */
public final class FaultyProvingKernels implements ProvingKernels {
  private final FaultyDevice device;
  private volatile ProvingKernels kernels;

  /**
   * @param open   opens the kernels with their device, at first and after each poison
   * @param faults what to inject
   */
  public FaultyProvingKernels(Supplier<? extends ProvingKernels> open, Faults faults) {
    Objects.requireNonNull(open, "open");
    this.device = new FaultyDevice(() -> {
      ProvingKernels k = Objects.requireNonNull(open.get(), "the opened kernels");
      kernels = k;
      return k.device();
    }, faults);
  }

  /** The faulty device the engine runs on. */
  @Override
  public FaultyDevice device() {
    return device;
  }

  /** The reopens of the device: the run's buffers keep their handles but not their contents across one. */
  @Override
  public int generation() {
    return device.reopens();
  }

  /** The kernels now wrapped (new ones after each reopen). */
  public ProvingKernels current() {
    return kernels;
  }

  @Override
  public void writeScalars(DeviceBuffer dst, int at, long[] src) {
    kernels.writeScalars(device.resolve(dst, "write scalars to " + dst.name()), at, src);
  }

  @Override
  public long[] readScalars(DeviceBuffer src, int at, int count) {
    return kernels.readScalars(device.resolve(src, "read scalars from " + src.name()), at, count);
  }

  @Override
  public void writeBases(DeviceBuffer dst, long at, G1Bases bases) {
    kernels.writeBases(device.resolve(dst, "write bases to " + dst.name()), at, bases);
  }

  @Override
  public void writeG2Bases(DeviceBuffer dst, long at, G2Bases bases) {
    kernels.writeG2Bases(device.resolve(dst, "write G2 bases to " + dst.name()), at, bases);
  }

  @Override
  public KernelRun ntt(String owner, DeviceBuffer data, int at, int logN, NttKind kind) {
    return device.launchWith("ntt", () -> kernels.ntt(owner, device.resolve(data, "ntt"), at, logN, kind));
  }

  @Override
  public KernelRun quotient(String owner, DeviceBuffer abc, int at, int logN, DeviceBuffer h) {
    return device.launchWith("ntt_h", () -> kernels.quotient(owner, device.resolve(abc, "ntt_h"), at, logN, device.resolve(h, "ntt_h")));
  }

  @Override
  public MsmRun<G1> msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt) {
    return launchMsm("msm", () -> kernels.msm(owner, device.resolve(bases, "msm"), basesAt,
        device.resolve(scalars, "msm"), scalarsAt));
  }

  @Override
  public long tableBytes(int count, int copies) {
    return kernels.tableBytes(count, copies);
  }

  @Override
  public KernelRun msmTable(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer table, long tableAt, int copies) {
    return device.launchWith("msm_table", () -> kernels.msmTable(owner, device.resolve(bases, "msm_table"), basesAt,
        device.resolve(table, "msm_table"), tableAt, copies));
  }

  @Override
  public MsmRun<G1> msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt, DeviceBuffer table,
      long tableAt) {
    return launchMsm("msm", () -> kernels.msm(owner, device.resolve(bases, "msm"), basesAt, device.resolve(scalars, "msm"),
        scalarsAt, device.resolve(table, "msm"), tableAt));
  }

  @Override
  public MsmRun<G2> g2Msm(String owner, DeviceBuffer bases, long basesAt, DeviceBuffer scalars, int scalarsAt) {
    return launchMsm("g2_msm", () -> kernels.g2Msm(owner, device.resolve(bases, "g2_msm"), basesAt,
        device.resolve(scalars, "g2_msm"), scalarsAt));
  }

  /** Launches the wrapped MSM through the faulty device, under the kernel name faults are drawn for. */
  private <P> MsmRun<P> launchMsm(String name, Supplier<MsmRun<P>> launch) {
    AtomicReference<MsmRun<P>> inner = new AtomicReference<>();
    KernelRun run = device.launchWith(name, () -> {
      MsmRun<P> launched = launch.get();
      inner.set(launched);
      return launched;
    });
    return MsmRun.of(run, () -> inner.get().result());
  }

  @Override
  public G1FixedBase fixedBase() {
    return kernels.fixedBase();
  }

  @Override
  public OptionalDouble kernelSeconds() {
    return kernels.kernelSeconds();
  }
}
