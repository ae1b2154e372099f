package dev.interlock.workload;

import dev.interlock.impl.api.KernelRun;
import dev.interlock.prover.curve.G2;
import java.util.function.Supplier;

/** A launched G2 multi-scalar multiplication (b_g2_msm on a device); its result is available once awaited. */
public interface G2MsmRun extends KernelRun {
  /** Waits for the kernel and returns sum of scalar[i]·base[i]. */
  G2 result();

  /** The G2 MSM behind {@code run}, whose result {@code result} reads once the run has been awaited. */
  static G2MsmRun of(KernelRun run, Supplier<G2> result) {
    return new G2MsmRun() {
      @Override
      public String name() {
        return run.name();
      }

      @Override
      public void await() {
        run.await();
      }

      @Override
      public G2 result() {
        run.await();
        return result.get();
      }
    };
  }
}
