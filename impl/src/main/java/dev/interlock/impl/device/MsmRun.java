package dev.interlock.impl.device;

import dev.interlock.impl.groth16.curve.G1;

/** A launched G1 multi-scalar multiplication; its result is available once awaited. */
public interface MsmRun extends KernelRun {
  /** Waits for the kernel and returns sum of scalar[i]·base[i]. */
  G1 result();
}
