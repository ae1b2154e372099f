package dev.interlock.prover.curve;

import java.util.List;
import java.util.Objects;
import supranational.blst.PT;

/** Pairing checks on BLS12-381 (optimal ate pairing e: G1 x G2 -&gt; GT), without exposing GT. */
public final class Pairing {
  private Pairing() {}

  /**
   * Whether prod_i e(a_i, b_i) == 1 in GT: one Miller loop per pair, multiplied, then a single
   * final exponentiation. Pairs with an identity side contribute 1 and are skipped; empty lists
   * give true. The lists must have the same size.
   */
  public static boolean pairingProductIsOne(List<G1> a, List<G2> b) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    if (a.size() != b.size()) {
      throw new IllegalArgumentException(
          "pairing product: " + a.size() + " G1 points but " + b.size() + " G2 points");
    }
    PT acc = millerProduct(a, b);
    return acc == null || acc.final_exp().is_one();
  }

  /** Whether e(p, q) == e(r, s), checked as e(p, q) * e(-r, s) == 1. */
  public static boolean pairingsEqual(G1 p, G2 q, G1 r, G2 s) {
    return pairingProductIsOne(List.of(p, r.neg()), List.of(q, s));
  }

  /** prod_i MillerLoop(a_i, b_i), a fresh PT the caller owns, or null for an empty product. */
  static PT millerProduct(List<G1> a, List<G2> b) {
    PT acc = null;
    for (int i = 0; i < a.size(); i++) {
      G1 p = Objects.requireNonNull(a.get(i), "a[" + i + "]");
      G2 q = Objects.requireNonNull(b.get(i), "b[" + i + "]");
      if (p.isIdentity() || q.isIdentity()) {
        continue;
      }
      PT ml = new PT(p.affine(), q.affine());
      acc = acc == null ? ml : acc.mul(ml); // PT.mul multiplies the receiver in place
    }
    return acc;
  }
}
