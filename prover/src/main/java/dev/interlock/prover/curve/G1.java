package dev.interlock.prover.curve;

import supranational.blst.P1;
import supranational.blst.P1_Affine;

/**
 * An immutable element of G1, the order-r subgroup of BLS12-381 over F_p (compressed size 48
 * bytes). Always in the subgroup (see the package conventions); equality is by canonical encoding.
 * The group law and encoding are {@link CurvePoint}'s; this class names blst's P1 operations.
 */
public final class G1 extends CurvePoint<G1, P1, P1_Affine> {
  /** Bytes in the compressed encoding. */
  public static final int COMPRESSED_BYTES = 48;

  /** blst's operations on P1, for {@link CurvePoint} and {@link Pippenger}. */
  static final PointOps<G1, P1, P1_Affine> OPS = new PointOps<>("G1", COMPRESSED_BYTES, G1::new, G1::identity,
      P1::new, P1::dup, P1::add, P1::add, P1::neg, P1::dbl, P1::mult, P1::is_inf, P1::to_affine,
      P1_Affine::to_jacobian, P1_Affine::new, P1_Affine::on_curve, P1_Affine::in_group, P1_Affine::compress);

  private static final G1 GENERATOR = new G1(P1.generator());
  private static final G1 IDENTITY = new G1(new P1());

  private G1(P1 owned) {
    super(owned);
  }

  /** The standard generator of G1. */
  public static G1 generator() {
    return GENERATOR;
  }

  /** The identity (point at infinity). */
  public static G1 identity() {
    return IDENTITY;
  }

  /**
   * Parses a canonical compressed encoding, checking that it is on the curve and in the subgroup;
   * throws IllegalArgumentException saying what is wrong otherwise.
   */
  public static G1 deserialize(byte[] bytes) {
    return deserialize(OPS, bytes);
  }

  @Override
  PointOps<G1, P1, P1_Affine> ops() {
    return OPS;
  }

  /** Takes ownership of a freshly computed point (the caller must drop its reference). */
  static G1 wrap(P1 owned) {
    return new G1(owned);
  }
}
