package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Limbs;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The fixed-base kernel's table (taken from CPU setup's) is laid out as g1_fixed_base in kernels.cu reads it. */
class GeneratorTableTest {
  @Test
  void entryOfWindowWAndDigitDIsDTimesTwoToTheCWTimesTheGenerator() {
    long[] limbs = CudaProvingKernels.GeneratorTable.LIMBS;
    int per = (1 << Kernels.FIXED_BASE_WINDOW) - 1;
    assertThat(limbs).hasSize(Kernels.fixedBaseTableSize() * G1Limbs.AFFINE_LONGS);
    SplittableRandom rng = new SplittableRandom(11);
    for (int k = 0; k < 40; k++) {
      int w = k < 2 ? k * (Kernels.FIXED_BASE_WINDOWS - 1) : rng.nextInt(Kernels.FIXED_BASE_WINDOWS);
      int d = k < 2 ? (k == 0 ? 1 : per) : 1 + rng.nextInt(per);
      BigInteger scalar = BigInteger.valueOf(d).shiftLeft(Kernels.FIXED_BASE_WINDOW * w);
      assertThat(G1Limbs.fromAffine(limbs, (w * per + d - 1) * G1Limbs.AFFINE_LONGS)).as("window %d digit %d", w, d)
          .isEqualTo(G1.generator().mul(scalar));
    }
  }
}
