package dev.interlock.prover.field;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * An immutable element of F_r, for setup code, constants and tests; hot loops use {@link Fr}'s static operations on
 * vectors instead (each operation here allocates its result).
 *
 * <p>Holds its own four Montgomery limbs, never shared outside the package; {@link #writeTo} and {@link #read} move
 * elements between values and vectors. Equality is value equality; {@link #toString} is the canonical value in hex.
 */
public final class FrElement {
  /** 0. */
  public static final FrElement ZERO = new FrElement(new long[Fr.LIMBS]);
  /** 1. */
  public static final FrElement ONE = new FrElement(Fr.ONE_MONT.clone());

  private final long[] limbs; // Montgomery form, never mutated after construction

  private FrElement(long[] limbs) {
    this.limbs = limbs;
  }

  /** v mod r (negative v gives r - |v|). */
  public static FrElement of(long v) {
    long[] l = new long[Fr.LIMBS];
    Fr.fromLong(v, l, 0);
    return new FrElement(l);
  }

  /** x, which must satisfy {@code 0 ≤ x < r} (IllegalArgumentException otherwise). */
  public static FrElement of(BigInteger x) {
    long[] l = new long[Fr.LIMBS];
    Fr.fromBigInteger(x, l, 0);
    return new FrElement(l);
  }

  /** x mod r, for any integer x. */
  public static FrElement reduce(BigInteger x) {
    long[] l = new long[Fr.LIMBS];
    Fr.fromBigIntegerReduced(x, l, 0);
    return new FrElement(l);
  }

  /** A uniformly random element. */
  public static FrElement random(RandomGenerator rng) {
    long[] l = new long[Fr.LIMBS];
    Fr.random(rng, l, 0);
    return new FrElement(l);
  }

  /** The element at index i of vector v. */
  public static FrElement read(long[] v, int i) {
    long[] l = new long[Fr.LIMBS];
    Fr.copy(v, i, l, 0);
    return new FrElement(l);
  }

  /** The element whose canonical value is the 32 little-endian bytes at src[off, off+32); rejects values ≥ r. */
  public static FrElement fromLittleEndianBytes(byte[] src, int off) {
    long[] l = new long[Fr.LIMBS];
    Fr.fromLittleEndianBytes(src, off, l, 0);
    return new FrElement(l);
  }

  /** Writes this element to index i of vector v. */
  public void writeTo(long[] v, int i) {
    Fr.copy(limbs, 0, v, i);
  }

  /** The internal Montgomery limbs, for package code that only reads them. */
  long[] limbs() {
    return limbs;
  }

  /** this + o. */
  public FrElement add(FrElement o) {
    long[] l = new long[Fr.LIMBS];
    Fr.add(limbs, 0, o.limbs, 0, l, 0);
    return new FrElement(l);
  }

  /** this - o. */
  public FrElement sub(FrElement o) {
    long[] l = new long[Fr.LIMBS];
    Fr.sub(limbs, 0, o.limbs, 0, l, 0);
    return new FrElement(l);
  }

  /** this · o. */
  public FrElement mul(FrElement o) {
    long[] l = new long[Fr.LIMBS];
    Fr.mul(limbs, 0, o.limbs, 0, l, 0);
    return new FrElement(l);
  }

  /** this². */
  public FrElement square() {
    long[] l = new long[Fr.LIMBS];
    Fr.square(limbs, 0, l, 0);
    return new FrElement(l);
  }

  /** -this. */
  public FrElement neg() {
    long[] l = new long[Fr.LIMBS];
    Fr.neg(limbs, 0, l, 0);
    return new FrElement(l);
  }

  /** this^-1; ArithmeticException for 0. */
  public FrElement inverse() {
    long[] l = new long[Fr.LIMBS];
    Fr.inverse(limbs, 0, l, 0);
    return new FrElement(l);
  }

  /** this^e (negative e: power of the inverse). */
  public FrElement pow(long e) {
    long[] l = new long[Fr.LIMBS];
    Fr.pow(limbs, 0, e, l, 0);
    return new FrElement(l);
  }

  /** this^e (negative e: power of the inverse). */
  public FrElement pow(BigInteger e) {
    long[] l = new long[Fr.LIMBS];
    Fr.pow(limbs, 0, e, l, 0);
    return new FrElement(l);
  }

  /** Whether this is 0. */
  public boolean isZero() {
    return Fr.isZero(limbs, 0);
  }

  /** Whether this is 1. */
  public boolean isOne() {
    return Fr.isOne(limbs, 0);
  }

  /** The canonical value, in [0, r). */
  public BigInteger toBigInteger() {
    return Fr.toBigInteger(limbs, 0);
  }

  /** The canonical value as 32 little-endian bytes (a blst scalar). */
  public byte[] toLittleEndianBytes() {
    return Fr.toLittleEndianBytes(limbs, 0);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FrElement other && Arrays.equals(limbs, other.limbs);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(limbs);
  }

  /** The canonical value as 0x-prefixed hex, 64 digits. */
  @Override
  public String toString() {
    return "0x" + Fr.toHex(limbs, 0);
  }
}
