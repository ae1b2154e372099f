package dev.interlock.prover.curve;

import supranational.blst.P2;
import supranational.blst.P2_Affine;

/**
 * An immutable element of G2, the order-r subgroup of the BLS12-381 twist over F_p^2 (compressed
 * size 96 bytes). Always in the subgroup (see the package conventions); equality is by canonical
 * encoding. The group law and encoding are {@link CurvePoint}'s; this class names blst's P2 operations.
 */
public final class G2 extends CurvePoint<G2, P2, P2_Affine> {
  /** Bytes in the compressed encoding. */
  public static final int COMPRESSED_BYTES = 96;

  /** blst's operations on P2, for {@link CurvePoint} and {@link Pippenger}. */
  static final PointOps<G2, P2, P2_Affine> OPS = new PointOps<>("G2", COMPRESSED_BYTES, G2::new, G2::identity,
      P2::new, P2::dup, P2::add, P2::add, P2::neg, P2::dbl, P2::mult, P2::is_inf, P2::to_affine,
      P2_Affine::to_jacobian, P2_Affine::new, P2_Affine::on_curve, P2_Affine::in_group, P2_Affine::compress);

  private static final G2 GENERATOR = new G2(P2.generator());
  private static final G2 IDENTITY = new G2(new P2());

  private G2(P2 owned) {
    super(owned);
  }

  /** The standard generator of G2. */
  public static G2 generator() {
    return GENERATOR;
  }

  /** The identity (point at infinity). */
  public static G2 identity() {
    return IDENTITY;
  }

  /**
   * Parses a canonical compressed encoding, checking that it is on the curve and in the subgroup;
   * throws IllegalArgumentException saying what is wrong otherwise.
   */
  public static G2 deserialize(byte[] bytes) {
    return deserialize(OPS, bytes);
  }

  @Override
  PointOps<G2, P2, P2_Affine> ops() {
    return OPS;
  }

  /** Takes ownership of a freshly computed point (the caller must drop its reference). */
  static G2 wrap(P2 owned) {
    return new G2(owned);
  }
}
