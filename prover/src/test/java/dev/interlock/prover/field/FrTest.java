package dev.interlock.prover.field;

import static dev.interlock.prover.field.FieldTestSupport.R;
import static dev.interlock.prover.field.FieldTestSupport.scalar;
import static dev.interlock.prover.field.FieldTestSupport.values;
import static dev.interlock.prover.field.FieldTestSupport.vector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** F_r arithmetic against BigInteger: random and edge values, conversions, validation and the vector layout. */
class FrTest {
  private static final BigInteger TWO_256 = BigInteger.ONE.shiftLeft(256);

  /** 0, 1, 2, r-1, r-2, 2^255 mod r and other values near limb and modulus boundaries. */
  private static List<BigInteger> edgeValues() {
    List<BigInteger> e = new ArrayList<>();
    BigInteger one = BigInteger.ONE;
    e.add(BigInteger.ZERO);
    e.add(one);
    e.add(BigInteger.TWO);
    e.add(R.subtract(one));
    e.add(R.subtract(BigInteger.TWO));
    e.add(one.shiftLeft(255).mod(R));
    e.add(one.shiftLeft(254));
    e.add(R.shiftRight(1));
    e.add(R.shiftRight(1).add(one));
    for (int k = 1; k <= 3; k++) {
      e.add(one.shiftLeft(64 * k));
      e.add(one.shiftLeft(64 * k).subtract(one));
    }
    e.add(BigInteger.valueOf(Long.MAX_VALUE));
    e.add(TWO_256.mod(R)); // R mod r: Montgomery form of 1 as a value
    e.add(TWO_256.mod(R).negate().mod(R));
    e.add(R.subtract(one.shiftLeft(64))); // low limbs of r with a borrow pattern
    return e;
  }

  @Test
  void constantsAreConsistent() {
    assertThat(R.isProbablePrime(64)).isTrue();
    assertThat(R.bitLength()).isEqualTo(Fr.BITS).isEqualTo(255);
    BigInteger limbs = BigInteger.ZERO;
    long[] n = {Fr.N0, Fr.N1, Fr.N2, Fr.N3};
    for (int i = 3; i >= 0; i--) {
      limbs = limbs.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(n[i])));
    }
    assertThat(limbs).isEqualTo(R);
    assertThat(Fr.INV * Fr.N0).as("INV = -r^-1 mod 2^64").isEqualTo(-1L);
    assertThat(Fr.toBigInteger(Fr.ONE_MONT, 0)).isEqualTo(BigInteger.ONE);
    assertThat(raw(Fr.ONE_MONT, 0)).isEqualTo(TWO_256.mod(R));
    assertThat(raw(Fr.R2, 0)).isEqualTo(TWO_256.pow(2).mod(R));
    // two-adicity 32
    BigInteger rm1 = R.subtract(BigInteger.ONE);
    assertThat(rm1.getLowestSetBit()).isEqualTo(Domain.TWO_ADICITY);
  }

  @Test
  void unsignedMultiplyHighMatchesBigInteger() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.unsignedMultiplyHigh", 11);
    long[] edge = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0xffffffffL, 1L << 32, Fr.N0, Fr.INV};
    List<long[]> pairs = new ArrayList<>();
    for (long a : edge) {
      for (long b : edge) {
        pairs.add(new long[] {a, b});
      }
    }
    for (int i = 0; i < 5000; i++) {
      pairs.add(new long[] {rnd.nextLong(), rnd.nextLong()});
    }
    for (long[] p : pairs) {
      BigInteger expect = unsigned(p[0]).multiply(unsigned(p[1])).shiftRight(64);
      assertThat(unsigned(Fr.unsignedMultiplyHigh(p[0], p[1]))).as("%x * %x", p[0], p[1]).isEqualTo(expect);
    }
  }

  @Test
  void randomArithmeticMatchesBigInteger() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.randomArithmetic", 20240601);
    int pairs = 10_000;
    long[] a = Fr.newVector(pairs);
    long[] b = Fr.newVector(pairs);
    BigInteger[] x = new BigInteger[pairs];
    BigInteger[] y = new BigInteger[pairs];
    for (int i = 0; i < pairs; i++) {
      x[i] = scalar(rnd);
      y[i] = scalar(rnd);
      Fr.fromBigInteger(x[i], a, i);
      Fr.fromBigInteger(y[i], b, i);
    }
    long[] out = Fr.newVector(pairs);
    for (int i = 0; i < pairs; i++) {
      checkAll(a, i, b, i, x[i], y[i], out, pairs - 1 - i);
    }
  }

  @Test
  void edgeValuesMatchBigInteger() {
    List<BigInteger> e = edgeValues();
    long[] v = vector(e.toArray(new BigInteger[0]));
    long[] out = Fr.newVector(1);
    for (int i = 0; i < e.size(); i++) {
      for (int j = 0; j < e.size(); j++) {
        checkAll(v, i, v, j, e.get(i), e.get(j), out, 0);
      }
    }
    // the largest products and sums land exactly where the final subtraction matters
    long[] m1 = vector(R.subtract(BigInteger.ONE));
    Fr.mul(m1, 0, m1, 0, out, 0);
    assertThat(Fr.isOne(out, 0)).as("(-1)^2 = 1").isTrue();
    Fr.add(m1, 0, vector(BigInteger.ONE), 0, out, 0);
    assertThat(Fr.isZero(out, 0)).as("(r-1) + 1 = 0").isTrue();
  }

  /** Checks every binary and unary operation of a[ai], b[bi] against BigInteger, also with aliased outputs. */
  private static void checkAll(long[] a, int ai, long[] b, int bi, BigInteger x, BigInteger y, long[] out, int oi) {
    String what = "x=" + x.toString(16) + " y=" + y.toString(16);
    Fr.mul(a, ai, b, bi, out, oi);
    assertThat(Fr.toBigInteger(out, oi)).as("mul " + what).isEqualTo(x.multiply(y).mod(R));
    assertThat(raw(out, oi)).as("mul output reduced").isLessThan(R);
    Fr.add(a, ai, b, bi, out, oi);
    assertThat(Fr.toBigInteger(out, oi)).as("add " + what).isEqualTo(x.add(y).mod(R));
    assertThat(raw(out, oi)).as("add output reduced").isLessThan(R);
    Fr.sub(a, ai, b, bi, out, oi);
    assertThat(Fr.toBigInteger(out, oi)).as("sub " + what).isEqualTo(x.subtract(y).mod(R));
    assertThat(raw(out, oi)).as("sub output reduced").isLessThan(R);
    Fr.square(a, ai, out, oi);
    assertThat(Fr.toBigInteger(out, oi)).as("square " + what).isEqualTo(x.multiply(x).mod(R));
    Fr.neg(a, ai, out, oi);
    assertThat(Fr.toBigInteger(out, oi)).as("neg " + what).isEqualTo(x.negate().mod(R));
    Fr.dbl(a, ai, out, oi);
    assertThat(Fr.toBigInteger(out, oi)).as("dbl " + what).isEqualTo(x.shiftLeft(1).mod(R));
    // aliasing: the output is one of the inputs
    long[] t = Fr.newVector(2);
    Fr.copy(a, ai, t, 0);
    Fr.copy(b, bi, t, 1);
    Fr.mul(t, 0, t, 1, t, 1);
    assertThat(Fr.toBigInteger(t, 1)).as("mul into b " + what).isEqualTo(x.multiply(y).mod(R));
    Fr.sub(t, 0, t, 1, t, 0);
    assertThat(Fr.toBigInteger(t, 0)).as("sub into a " + what).isEqualTo(x.subtract(x.multiply(y)).mod(R));
  }

  @Test
  void inverseTimesValueIsOne() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.inverse", 3);
    List<BigInteger> xs = new ArrayList<>(edgeValues());
    xs.remove(BigInteger.ZERO);
    for (int i = 0; i < 500; i++) {
      xs.add(scalar(rnd));
    }
    long[] v = Fr.newVector(2);
    for (BigInteger x : xs) {
      if (x.signum() == 0) {
        continue;
      }
      Fr.fromBigInteger(x, v, 0);
      Fr.inverse(v, 0, v, 1);
      assertThat(Fr.toBigInteger(v, 1)).as("inverse of %s", x).isEqualTo(x.modInverse(R));
      Fr.mul(v, 0, v, 1, v, 1);
      assertThat(Fr.isOne(v, 1)).isTrue();
    }
    long[] minusOne = vector(R.subtract(BigInteger.ONE));
    Fr.inverse(minusOne, 0, minusOne, 0); // in place
    assertThat(Fr.toBigInteger(minusOne, 0)).isEqualTo(R.subtract(BigInteger.ONE));
  }

  @Test
  void inverseOfZeroThrows() {
    long[] z = Fr.newVector(2);
    assertThatThrownBy(() -> Fr.inverse(z, 0, z, 1)).isInstanceOf(ArithmeticException.class).hasMessageContaining("zero");
    assertThatThrownBy(() -> FrElement.ZERO.inverse()).isInstanceOf(ArithmeticException.class);
    assertThatThrownBy(() -> Fr.pow(z, 0, -1, z, 1)).isInstanceOf(ArithmeticException.class);
  }

  @Test
  void batchInverseMatchesSingleInversion() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.batchInverse", 5);
    int n = 257;
    long[] v = Fr.newVector(n + 3);
    for (int i = 0; i < n + 3; i++) {
      Fr.fromBigInteger(scalar(rnd).max(BigInteger.ONE), v, i);
    }
    Fr.setOne(v, 7);
    Fr.fromBigInteger(R.subtract(BigInteger.ONE), v, 8);
    // out of place with offsets: elements [2, 2+n) into out [1, 1+n)
    long[] out = Fr.newVector(n + 2);
    Fr.batchInverse(v, 2, n, out, 1);
    long[] single = Fr.newVector(1);
    for (int i = 0; i < n; i++) {
      Fr.inverse(v, 2 + i, single, 0);
      assertThat(Fr.equals(out, 1 + i, single, 0)).as("element %d", i).isTrue();
    }
    assertThat(Fr.isZero(out, 0)).as("untouched before the range").isTrue();
    assertThat(Fr.isZero(out, n + 1)).as("untouched after the range").isTrue();
    // in place, the whole vector
    long[] copy = v.clone();
    Fr.batchInverse(copy);
    for (int i = 0; i < n + 3; i++) {
      Fr.mul(copy, i, v, i, single, 0);
      assertThat(Fr.isOne(single, 0)).as("in place element %d", i).isTrue();
    }
    // one element, and none
    long[] one = vector(BigInteger.valueOf(9));
    Fr.batchInverse(one);
    assertThat(Fr.toBigInteger(one, 0)).isEqualTo(BigInteger.valueOf(9).modInverse(R));
    Fr.batchInverse(new long[0]);
  }

  @Test
  void batchInverseRejectsZeroNamingItAndLeavesOutputAlone() {
    long[] v = vector(BigInteger.ONE, BigInteger.TWO, BigInteger.ZERO, BigInteger.TEN);
    long[] before = v.clone();
    assertThatThrownBy(() -> Fr.batchInverse(v))
        .isInstanceOf(ArithmeticException.class)
        .hasMessageContaining("element 2 is zero");
    assertThat(v).isEqualTo(before);
    long[] first = vector(BigInteger.ZERO, BigInteger.ONE);
    assertThatThrownBy(() -> Fr.batchInverse(first)).hasMessageContaining("element 0 is zero");
    assertThatThrownBy(() -> Fr.batchInverse(v, 0, -1, v, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void powMatchesModPow() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.pow", 7);
    long[] v = Fr.newVector(2);
    for (int i = 0; i < 200; i++) {
      BigInteger x = scalar(rnd);
      Fr.fromBigInteger(x, v, 0);
      long e = rnd.nextLong() >>> rnd.nextInt(64);
      Fr.pow(v, 0, e, v, 1);
      assertThat(Fr.toBigInteger(v, 1)).as("%s^%d", x, e).isEqualTo(x.modPow(BigInteger.valueOf(e), R));
      BigInteger big = new BigInteger(300, new java.util.Random(rnd.nextLong()));
      Fr.pow(v, 0, big, v, 1);
      assertThat(Fr.toBigInteger(v, 1)).isEqualTo(x.modPow(big, R));
      if (x.signum() != 0) {
        Fr.pow(v, 0, -5, v, 1);
        assertThat(Fr.toBigInteger(v, 1)).as("negative exponent").isEqualTo(x.modPow(BigInteger.valueOf(-5), R));
        Fr.pow(v, 0, R.subtract(BigInteger.ONE), v, 1);
        assertThat(Fr.isOne(v, 1)).as("Fermat: x^(r-1) = 1").isTrue();
      }
    }
    Fr.setZero(v, 0);
    Fr.pow(v, 0, 0, v, 1);
    assertThat(Fr.isOne(v, 1)).as("0^0 = 1").isTrue();
    Fr.pow(v, 0, 5, v, 1);
    assertThat(Fr.isZero(v, 1)).isTrue();
    Fr.fromLong(3, v, 0);
    Fr.pow(v, 0, Long.MIN_VALUE, v, 0); // in place, most negative long
    assertThat(Fr.toBigInteger(v, 0)).isEqualTo(BigInteger.valueOf(3).modPow(BigInteger.valueOf(Long.MIN_VALUE), R));
  }

  @Test
  void fromBigIntegerValidates() {
    long[] v = Fr.newVector(1);
    assertThatThrownBy(() -> Fr.fromBigInteger(R, v, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("below r");
    assertThatThrownBy(() -> Fr.fromBigInteger(R.add(BigInteger.ONE), v, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Fr.fromBigInteger(TWO_256, v, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Fr.fromBigInteger(BigInteger.ONE.negate(), v, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("non-negative");
    assertThatThrownBy(() -> Fr.fromBigInteger(null, v, 0)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> FrElement.of(R)).isInstanceOf(IllegalArgumentException.class);
    assertThat(v).as("nothing written on rejection").containsOnly(0L);
    Fr.fromBigInteger(R.subtract(BigInteger.ONE), v, 0);
    assertThat(Fr.toBigInteger(v, 0)).isEqualTo(R.subtract(BigInteger.ONE));
    Fr.fromBigIntegerReduced(BigInteger.ONE.negate(), v, 0);
    assertThat(Fr.toBigInteger(v, 0)).isEqualTo(R.subtract(BigInteger.ONE));
    Fr.fromBigIntegerReduced(R.multiply(R).add(BigInteger.TEN), v, 0);
    assertThat(Fr.toBigInteger(v, 0)).isEqualTo(BigInteger.TEN);
  }

  @Test
  void fromLongReducesNegatives() {
    long[] v = Fr.newVector(1);
    for (long x : new long[] {0, 1, -1, 2, -2, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 123456789}) {
      Fr.fromLong(x, v, 0);
      assertThat(Fr.toBigInteger(v, 0)).as("fromLong(%d)", x).isEqualTo(BigInteger.valueOf(x).mod(R));
    }
  }

  @Test
  void toCanonicalOfAVectorAgreesElementByElementAcrossItsParallelChunks() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.toCanonical", 17);
    int n = 3 * (1 << 14) + 5; // several chunks and a short last one
    long[] v = Fr.randomVector(rnd, n + 3);
    long[] all = Fr.toCanonical(v, 3, n);
    long[] one = new long[Fr.LIMBS];
    for (int i = 0; i < n; i++) {
      Fr.toCanonicalLimbs(v, 3 + i, one, 0);
      assertThat(Arrays.copyOfRange(all, Fr.LIMBS * i, Fr.LIMBS * i + Fr.LIMBS)).as("element %d", i).isEqualTo(one);
    }
  }

  @Test
  void montgomeryFormRoundTrips() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.montgomery", 13);
    long[] v = Fr.newVector(1);
    long[] limbs = new long[6];
    for (int i = 0; i < 1000; i++) {
      BigInteger x = i < edgeValues().size() ? edgeValues().get(i) : scalar(rnd);
      Fr.fromBigInteger(x, v, 0);
      assertThat(raw(v, 0)).as("stored form is x·2^256 mod r").isEqualTo(x.shiftLeft(256).mod(R));
      Fr.toCanonicalLimbs(v, 0, limbs, 1);
      assertThat(raw(Arrays.copyOfRange(limbs, 1, 5), 0)).isEqualTo(x);
      long[] back = Fr.newVector(1);
      Fr.fromCanonicalLimbs(limbs, 1, back, 0);
      assertThat(back).isEqualTo(v);
      assertThat(Fr.toBigInteger(v, 0)).isEqualTo(x);
    }
    long[] bad = {Fr.N0, Fr.N1, Fr.N2, Fr.N3};
    assertThatThrownBy(() -> Fr.fromCanonicalLimbs(bad, 0, v, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("73eda753");
  }

  @Test
  void littleEndianBytesRoundTrip() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.bytes", 17);
    long[] v = Fr.newVector(2);
    for (int i = 0; i < 1000; i++) {
      BigInteger x = i < edgeValues().size() ? edgeValues().get(i) : scalar(rnd);
      Fr.fromBigInteger(x, v, 1);
      byte[] le = Fr.toLittleEndianBytes(v, 1);
      assertThat(le).hasSize(32);
      assertThat(new BigInteger(1, reversed(le))).isEqualTo(x);
      byte[] padded = new byte[40];
      Fr.toLittleEndianBytes(v, 1, padded, 5);
      assertThat(Arrays.copyOfRange(padded, 5, 37)).isEqualTo(le);
      Fr.fromLittleEndianBytes(padded, 5, v, 0);
      assertThat(Fr.equals(v, 0, v, 1)).isTrue();
      assertThat(FrElement.fromLittleEndianBytes(le, 0).toBigInteger()).isEqualTo(x);
    }
    byte[] rBytes = reversed(toBytes32(R));
    assertThatThrownBy(() -> Fr.fromLittleEndianBytes(rBytes, 0, v, 0)).isInstanceOf(IllegalArgumentException.class);
    byte[] ones = new byte[32];
    Arrays.fill(ones, (byte) 0xff);
    assertThatThrownBy(() -> Fr.fromLittleEndianBytes(ones, 0, v, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Fr.fromLittleEndianBytes(new byte[31], 0, v, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    // a fixed vector: 1 is 01 00 .. 00
    Fr.setOne(v, 0);
    byte[] oneLe = Fr.toLittleEndianBytes(v, 0);
    assertThat(oneLe[0]).isEqualTo((byte) 1);
    assertThat(Arrays.copyOfRange(oneLe, 1, 32)).containsOnly((byte) 0);
  }

  @Test
  void randomIsReducedReproducibleAndSpread() {
    long seed = 99;
    SplittableRandom a = FieldTestSupport.random("FrTest.random", seed);
    SplittableRandom b = new SplittableRandom(a.split().nextLong());
    long[] x = Fr.newVector(4000);
    for (int i = 0; i < 4000; i++) {
      Fr.random(a, x, i);
    }
    int high = 0;
    int odd = 0;
    BigInteger half = R.shiftRight(1);
    for (BigInteger value : values(x)) {
      assertThat(value).isLessThan(R);
      high += value.compareTo(half) > 0 ? 1 : 0;
      odd += value.testBit(0) ? 1 : 0;
    }
    // binomial(4000, 1/2): sd ~32; 6 sd bounds
    assertThat(high).isBetween(1810, 2190);
    assertThat(odd).isBetween(1810, 2190);
    long[] y1 = Fr.newVector(1);
    long[] y2 = Fr.newVector(1);
    long s = b.nextLong();
    Fr.random(new SplittableRandom(s), y1, 0);
    Fr.random(new SplittableRandom(s), y2, 0);
    assertThat(y1).isEqualTo(y2);
  }

  @Test
  void operationsTouchOnlyTheirElementsLimbs() {
    long[] v = new long[4 * 5];
    Arrays.fill(v, 0x5a5a5a5a5a5a5a5aL);
    long[] src = vector(BigInteger.valueOf(3), BigInteger.valueOf(4));
    Fr.mul(src, 0, src, 1, v, 2);
    Fr.add(src, 0, src, 1, v, 3);
    for (int limb = 0; limb < v.length; limb++) {
      if (limb < 8 || limb >= 16) {
        assertThat(v[limb]).as("limb %d", limb).isEqualTo(0x5a5a5a5a5a5a5a5aL);
      }
    }
    assertThat(Fr.toBigInteger(v, 2)).isEqualTo(BigInteger.valueOf(12));
    assertThat(Fr.toBigInteger(v, 3)).isEqualTo(BigInteger.valueOf(7));
    assertThat(Fr.size(v)).isEqualTo(5);
    assertThatThrownBy(() -> Fr.newVector(-1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void predicatesAndSetters() {
    long[] v = Fr.newVector(3);
    assertThat(Fr.isZero(v, 1)).isTrue();
    assertThat(Fr.isOne(v, 1)).isFalse();
    Fr.setOne(v, 1);
    assertThat(Fr.isOne(v, 1)).isTrue();
    assertThat(Fr.isZero(v, 1)).isFalse();
    assertThat(Fr.toBigInteger(v, 1)).isEqualTo(BigInteger.ONE);
    Fr.copy(v, 1, v, 2);
    assertThat(Fr.equals(v, 1, v, 2)).isTrue();
    assertThat(Fr.equals(v, 0, v, 2)).isFalse();
    Fr.setZero(v, 1);
    assertThat(Fr.isZero(v, 1)).isTrue();
    Fr.fromLong(-1, v, 0);
    assertThat(Fr.toHex(v, 0)).isEqualTo("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000");
  }

  @Test
  void frElementIsAnImmutableValue() {
    SplittableRandom rnd = FieldTestSupport.random("FrTest.frElement", 23);
    for (int i = 0; i < 300; i++) {
      BigInteger x = scalar(rnd);
      BigInteger y = scalar(rnd).max(BigInteger.ONE);
      FrElement a = FrElement.of(x);
      FrElement b = FrElement.of(y);
      assertThat(a.add(b).toBigInteger()).isEqualTo(x.add(y).mod(R));
      assertThat(a.sub(b).toBigInteger()).isEqualTo(x.subtract(y).mod(R));
      assertThat(a.mul(b).toBigInteger()).isEqualTo(x.multiply(y).mod(R));
      assertThat(a.square()).isEqualTo(a.mul(a));
      assertThat(a.neg().add(a)).isEqualTo(FrElement.ZERO);
      assertThat(b.inverse().mul(b)).isEqualTo(FrElement.ONE);
      assertThat(a.pow(3)).isEqualTo(a.mul(a).mul(a));
      assertThat(a.pow(BigInteger.valueOf(3))).isEqualTo(a.pow(3));
      assertThat(a.toBigInteger()).isEqualTo(x);
      assertThat(FrElement.reduce(x.add(R))).isEqualTo(a);
    }
    FrElement seven = FrElement.of(7);
    assertThat(seven).isEqualTo(FrElement.of(BigInteger.valueOf(7))).hasSameHashCodeAs(FrElement.of(7));
    assertThat(seven).isNotEqualTo(FrElement.of(8)).isNotEqualTo("7");
    assertThat(seven.toString()).isEqualTo("0x" + "0".repeat(63) + "7");
    assertThat(FrElement.of(-1).toString()).isEqualTo("0x" + R.subtract(BigInteger.ONE).toString(16));
    assertThat(FrElement.ONE.isOne()).isTrue();
    assertThat(FrElement.ZERO.isZero()).isTrue();
    assertThat(FrElement.ONE.toLittleEndianBytes()[0]).isEqualTo((byte) 1);
    // writing out and changing the vector leaves the value alone
    long[] v = Fr.newVector(2);
    seven.writeTo(v, 1);
    FrElement read = FrElement.read(v, 1);
    v[4] ^= 1;
    assertThat(read).isEqualTo(seven);
    assertThat(seven.toBigInteger()).isEqualTo(BigInteger.valueOf(7));
    FrElement r1 = FrElement.random(new SplittableRandom(1));
    assertThat(r1).isEqualTo(FrElement.random(new SplittableRandom(1)));
  }

  // ---------------------------------------------------------------- helpers

  /** The stored (Montgomery) limbs of element i as an unsigned integer. */
  private static BigInteger raw(long[] v, int i) {
    BigInteger x = BigInteger.ZERO;
    for (int k = 3; k >= 0; k--) {
      x = x.shiftLeft(64).or(unsigned(v[4 * i + k]));
    }
    return x;
  }

  private static BigInteger unsigned(long x) {
    return new BigInteger(Long.toUnsignedString(x));
  }

  private static byte[] reversed(byte[] b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = b[b.length - 1 - i];
    }
    return out;
  }

  private static byte[] toBytes32(BigInteger x) {
    byte[] be = x.toByteArray();
    byte[] out = new byte[32];
    int n = Math.min(be.length, 32);
    System.arraycopy(be, be.length - n, out, 32 - n, n);
    return out;
  }
}
