package dev.interlock.workload;

import dev.interlock.impl.api.KernelRun;
import dev.interlock.prover.curve.G1;
import java.util.function.Supplier;

/** A launched G1 multi-scalar multiplication; its result is available once awaited. */
public interface MsmRun extends KernelRun {
  /** Waits for the kernel and returns sum of scalar[i]·base[i]. */
  G1 result();

  /** The MSM behind {@code run}, whose result {@code result} reads once the run has been awaited. */
  static MsmRun of(KernelRun run, Supplier<G1> result) {
    return new MsmRun() {
      @Override
      public String name() {
        return run.name();
      }

      @Override
      public void await() {
        run.await();
      }

      @Override
      public G1 result() {
        run.await();
        return result.get();
      }
    };
  }
}
