package dev.interlock.prover.curve;

import static dev.interlock.prover.curve.CurveTestSupport.R;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Scalar encodings: little-endian bytes and limbs, canonical checks. */
class ScalarsTest {
  private final Random rnd = CurveTestSupport.random("ScalarsTest", 0x5CA1L);

  @Test
  void rIsTheBls12381GroupOrder() {
    assertThat(R.bitLength()).isEqualTo(255);
    assertThat(R.isProbablePrime(64)).isTrue();
    // r = x^4 - x^2 + 1 for the curve parameter x = -0xd201000000010000
    BigInteger x = new BigInteger("-d201000000010000", 16);
    assertThat(x.pow(4).subtract(x.pow(2)).add(BigInteger.ONE)).isEqualTo(R);
  }

  @Test
  void bytesAndLimbsRoundTrip() {
    List<BigInteger> values =
        new ArrayList<>(List.of(BigInteger.ZERO, BigInteger.ONE, R.subtract(BigInteger.ONE)));
    values.addAll(CurveTestSupport.scalars(rnd, 50));
    long[] limbs = Scalars.toLimbs(values);
    assertThat(limbs).hasSize(4 * values.size());
    byte[] flat = new byte[32 * values.size()];
    for (int i = 0; i < values.size(); i++) {
      BigInteger v = values.get(i);
      byte[] le = Scalars.toLittleEndianBytes(v);
      assertThat(le).hasSize(32);
      assertThat(Scalars.fromLittleEndianBytes(le)).isEqualTo(v);
      assertThat(Scalars.fromLimbs(limbs, i)).isEqualTo(v);
      assertThat(limbs[4 * i]).isEqualTo(v.longValue());
      assertThat(le[0]).isEqualTo(v.byteValue());
      assertThat(Scalars.isCanonical(limbs, 4 * i)).isTrue();
      System.arraycopy(le, 0, flat, 32 * i, 32);
    }
    assertThat(Scalars.limbsFromBytes(flat)).isEqualTo(limbs);
  }

  @Test
  void nonCanonicalValuesAreRejected() {
    assertThatThrownBy(() -> Scalars.toLittleEndianBytes(R))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Scalars.toLittleEndianBytes(BigInteger.ONE.negate()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Scalars.toLimbs(List.of(BigInteger.ONE, R)))
        .isInstanceOf(IllegalArgumentException.class);
    long[] r = {0xffffffff00000001L, 0x53bda402fffe5bfeL, 0x3339d80809a1d805L, 0x73eda753299d7d48L};
    assertThat(Scalars.fromLimbs(r, 0)).isEqualTo(R);
    assertThat(Scalars.isCanonical(r, 0)).isFalse();
    r[0]--;
    assertThat(Scalars.isCanonical(r, 0)).isTrue();
    assertThat(Scalars.isCanonical(new long[] {0, 0, 0, -1L}, 0)).isFalse();
    assertThat(Scalars.isCanonical(new long[] {-1L, -1L, -1L, 0x73eda753299d7d47L}, 0)).isTrue();
    assertThatThrownBy(() -> Scalars.limbsFromBytes(new byte[33]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiple of 32");
  }
}
