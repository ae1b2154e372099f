package dev.interlock.prover.field;

import static dev.interlock.prover.field.FieldTestSupport.R;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Roots of unity from the generator 7, domains, the coset shift and the vanishing polynomial. */
class DomainTest {
  private static final BigInteger MINUS_ONE = R.subtract(BigInteger.ONE);
  private static final BigInteger SEVEN = BigInteger.valueOf(7);

  @Test
  void rootOfUnityIsSevenToTheOddPartAndHasOrderExactly2To32() {
    BigInteger t = MINUS_ONE.shiftRight(32);
    assertThat(t.testBit(0)).as("(r-1)/2^32 is odd: two-adicity is exactly 32").isTrue();
    BigInteger root = SEVEN.modPow(t, R);
    assertThat(Domain.ROOT_OF_UNITY.toBigInteger()).isEqualTo(root);
    // the well-known value for BLS12-381 (as published with generator 7)
    assertThat(Domain.ROOT_OF_UNITY.toString()).isEqualTo("0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
    assertThat(Domain.ROOT_OF_UNITY.pow(1L << 31).toBigInteger()).as("omega^(2^31) = -1").isEqualTo(MINUS_ONE);
    assertThat(Domain.ROOT_OF_UNITY.pow(1L << 32).isOne()).isTrue();
  }

  @Test
  void sevenIsANonResidueSoTheCosetMissesEverySubgroup() {
    assertThat(SEVEN.modPow(MINUS_ONE.shiftRight(1), R)).isEqualTo(MINUS_ONE);
    assertThat(Domain.GENERATOR.toBigInteger()).isEqualTo(SEVEN);
    for (int k = 0; k <= Ntt.MAX_LOG_N; k++) {
      Domain d = Domain.of(k);
      assertThat(d.vanishingOnCoset().isZero()).as("7^n != 1 for n = 2^%d", k).isFalse();
      assertThat(d.vanishingOnCoset().toBigInteger()).isEqualTo(SEVEN.modPow(BigInteger.ONE.shiftLeft(k), R).subtract(BigInteger.ONE).mod(R));
    }
  }

  @Test
  void everyRootHasExactOrder() {
    for (int k = 0; k <= Domain.TWO_ADICITY; k++) {
      FrElement w = Domain.rootOfUnity(k);
      assertThat(w.pow(1L << k).isOne()).as("w_%d^(2^%d) = 1", k, k).isTrue();
      if (k > 0) {
        assertThat(w.pow(1L << (k - 1)).toBigInteger()).as("w_%d^(2^%d) = -1", k, k - 1).isEqualTo(MINUS_ONE);
      } else {
        assertThat(w.isOne()).isTrue();
      }
      if (k < Domain.TWO_ADICITY) {
        assertThat(Domain.rootOfUnity(k + 1).square()).isEqualTo(w);
      }
    }
    assertThatThrownBy(() -> Domain.rootOfUnity(33)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Domain.rootOfUnity(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void domainConstants() {
    for (int k = 0; k <= Ntt.MAX_LOG_N; k++) {
      Domain d = Domain.of(k);
      int n = 1 << k;
      assertThat(d.logN()).isEqualTo(k);
      assertThat(d.size()).isEqualTo(n);
      assertThat(d.omega()).isEqualTo(Domain.rootOfUnity(k));
      assertThat(d.omega().mul(d.omegaInverse()).isOne()).isTrue();
      assertThat(d.sizeInverse().mul(FrElement.of(n)).isOne()).isTrue();
      assertThat(d.cosetShift().mul(d.cosetShiftInverse()).isOne()).isTrue();
      assertThat(d.element(n)).isEqualTo(FrElement.ONE);
      assertThat(d.element(-1)).isEqualTo(d.omegaInverse());
      assertThat(d.element(3)).isEqualTo(d.omega().pow(3));
      assertThat(Domain.of(k)).isSameAs(d);
    }
    assertThat(Domain.of(4).toString()).isEqualTo("Domain(2^4)");
    assertThatThrownBy(() -> Domain.of(Ntt.MAX_LOG_N + 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Domain.of(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void vanishingPolynomialIsZeroExactlyOnTheDomain() {
    SplittableRandom rnd = FieldTestSupport.random("DomainTest.vanishing", 31);
    Domain d = Domain.of(6);
    for (int i = 0; i < d.size(); i++) {
      assertThat(d.vanishing(d.element(i)).isZero()).as("Z(omega^%d)", i).isTrue();
      FrElement onCoset = d.cosetShift().mul(d.element(i));
      assertThat(d.vanishing(onCoset)).isEqualTo(d.vanishingOnCoset());
      // a root of unity of twice the order, off the domain
      assertThat(d.vanishing(Domain.rootOfUnity(7).mul(d.element(i))).isZero()).isFalse();
    }
    FrElement x = FrElement.random(rnd);
    assertThat(d.vanishing(x).toBigInteger()).isEqualTo(x.toBigInteger().pow(64).subtract(BigInteger.ONE).mod(R));
  }

  @Test
  void atLeastPicksTheSmallestPowerOfTwo() {
    assertThat(Domain.atLeast(1).logN()).isEqualTo(0);
    assertThat(Domain.atLeast(2).logN()).isEqualTo(1);
    assertThat(Domain.atLeast(3).logN()).isEqualTo(2);
    assertThat(Domain.atLeast(1024).logN()).isEqualTo(10);
    assertThat(Domain.atLeast(1025).logN()).isEqualTo(11);
    assertThat(Domain.atLeast(1L << 28).logN()).isEqualTo(28);
    assertThatThrownBy(() -> Domain.atLeast(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Domain.atLeast((1L << 28) + 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void domainTransformsDelegate() {
    SplittableRandom rnd = FieldTestSupport.random("DomainTest.transforms", 37);
    Domain d = Domain.of(5);
    long[] v = Fr.randomVector(rnd, 32);
    long[] w = v.clone();
    d.forward(w);
    long[] x = v.clone();
    Ntt.forward(x, 5);
    assertThat(w).isEqualTo(x);
    d.inverse(w);
    assertThat(w).isEqualTo(v);
    d.cosetForward(w);
    assertThat(Fr.equals(w, 1, vectorOf(evaluate(v, d.cosetShift().mul(d.omega()))), 0)).isTrue();
    d.cosetInverse(w);
    assertThat(w).isEqualTo(v);
  }

  private static FrElement evaluate(long[] coefficients, FrElement x) {
    FrElement acc = FrElement.ZERO;
    for (int i = Fr.size(coefficients) - 1; i >= 0; i--) {
      acc = acc.mul(x).add(FrElement.read(coefficients, i));
    }
    return acc;
  }

  private static long[] vectorOf(FrElement e) {
    long[] v = Fr.newVector(1);
    e.writeTo(v, 0);
    return v;
  }
}
