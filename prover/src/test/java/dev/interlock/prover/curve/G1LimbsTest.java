package dev.interlock.prover.curve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class G1LimbsTest {
  private static final BigInteger P = new BigInteger(
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16);

  private static BigInteger fromMontgomery(long[] limbs, int at) {
    BigInteger v = BigInteger.ZERO;
    for (int i = 5; i >= 0; i--) {
      v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(limbs[at + i])));
    }
    return v.multiply(BigInteger.ONE.shiftLeft(384).modInverse(P)).mod(P);
  }

  @Test
  void affineLimbsAreMontgomeryCoordinatesOfTheGenerator() {
    long[] g = G1Limbs.affine(G1.generator());
    assertThat(fromMontgomery(g, 0).toString(16)).isEqualTo(
        "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  }

  @Test
  void affineRoundTripsAndIdentityIsZeros() {
    SplittableRandom rng = new SplittableRandom(7);
    G1[] pts = {G1.generator().mul(BigInteger.valueOf(rng.nextLong(1, Long.MAX_VALUE))), G1.identity(), G1.generator()};
    G1Bases bases = G1Bases.of(pts);
    long[] limbs = new long[3 * G1Limbs.AFFINE_LONGS];
    G1Limbs.affine(bases, 0, 3, limbs, 0);
    for (int i = 0; i < 3; i++) {
      assertThat(G1Limbs.fromAffine(limbs, i * G1Limbs.AFFINE_LONGS)).isEqualTo(pts[i]);
    }
    for (int i = 12; i < 24; i++) {
      assertThat(limbs[i]).isZero();
    }
    // into a direct buffer from its position, and into an array at an offset: the same limbs
    java.nio.LongBuffer direct = java.nio.ByteBuffer.allocateDirect(8 * (5 + limbs.length)).asLongBuffer();
    direct.position(5);
    G1Limbs.affine(bases, 0, 3, direct);
    assertThat(direct.position()).isEqualTo(5 + limbs.length);
    long[] offset = new long[2 + limbs.length];
    G1Limbs.affine(bases, 1, 2, offset, 2 + G1Limbs.AFFINE_LONGS);
    for (int i = 0; i < limbs.length; i++) {
      assertThat(direct.get(5 + i)).as("direct %d", i).isEqualTo(limbs[i]);
    }
    for (int i = G1Limbs.AFFINE_LONGS; i < limbs.length; i++) {
      assertThat(offset[2 + i]).as("offset %d", i).isEqualTo(limbs[i]);
    }
    assertThatThrownBy(() -> G1Limbs.affine(bases, 0, 3, java.nio.LongBuffer.allocate(35)))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void jacobianWithZEqualToOneIsTheAffinePoint() {
    G1 p = G1.generator().mul(BigInteger.valueOf(12345));
    long[] jac = new long[G1Limbs.JACOBIAN_LONGS];
    System.arraycopy(G1Limbs.affine(p), 0, jac, 0, 12);
    // z = R mod p (Montgomery one), little-endian limbs
    long[] rModP = {0x760900000002fffdL, 0xebf4000bc40c0002L, 0x5f48985753c758baL, 0x77ce585370525745L,
        0x5c071a97a256ec6dL, 0x15f65ec3fa80e493L};
    System.arraycopy(rModP, 0, jac, 12, 6);
    assertThat(G1Limbs.fromJacobian(jac, 0)).isEqualTo(p);
    assertThat(G1Limbs.fromJacobian(new long[18], 0).isIdentity()).isTrue();
  }

  @Test
  void pointsOffTheCurveAreRefused() {
    long[] bad = G1Limbs.affine(G1.generator());
    bad[0] ^= 1;
    assertThatThrownBy(() -> G1Limbs.fromAffine(bad, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a point on the curve");
  }
}
