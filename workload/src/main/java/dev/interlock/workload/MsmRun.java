package dev.interlock.workload;

import dev.interlock.impl.api.KernelRun;
import java.util.function.Supplier;

/**
 * A launched multi-scalar multiplication in group {@code P} (G1, or G2 for b_g2_msm on a device); its result is
 * available once awaited.
 */
public interface MsmRun<P> extends KernelRun {
  /** Waits for the kernel and returns sum of scalar[i]·base[i]. */
  P result();

  /** The MSM behind {@code run}, whose result {@code result} reads once the run has been awaited. */
  static <P> MsmRun<P> of(KernelRun run, Supplier<P> result) {
    return new MsmRun<>() {
      @Override
      public String name() {
        return run.name();
      }

      @Override
      public void await() {
        run.await();
      }

      @Override
      public P result() {
        run.await();
        return result.get();
      }
    };
  }
}
