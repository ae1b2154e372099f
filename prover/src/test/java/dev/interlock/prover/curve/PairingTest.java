package dev.interlock.prover.curve;

import static dev.interlock.prover.curve.CurveTestSupport.R;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pairing products: bilinearity, non-degeneracy, identities, and that false identities fail. */
@Timeout(60)
class PairingTest {
  private final Random rnd = CurveTestSupport.random("PairingTest", 0xE_5EEDL);

  @Test
  void bilinearityOnRandomPoints() {
    for (int i = 0; i < 4; i++) {
      G1 p = CurveTestSupport.g1(rnd);
      G2 q = CurveTestSupport.g2(rnd);
      BigInteger a = CurveTestSupport.nonzeroScalar(rnd);
      BigInteger b = CurveTestSupport.nonzeroScalar(rnd);
      BigInteger ab = a.multiply(b).mod(R);
      // e(aP, bQ) * e(-abP, Q) == 1, i.e. e(aP, bQ) == e(P, Q)^(ab)
      assertThat(
              Pairing.pairingProductIsOne(List.of(p.mul(a), p.mul(ab).neg()), List.of(q.mul(b), q)))
          .isTrue();
      // the same with the scalar moved to the G2 side
      assertThat(
              Pairing.pairingProductIsOne(List.of(p.mul(a), p.neg()), List.of(q.mul(b), q.mul(ab))))
          .isTrue();
      // a false identity: exponent ab + 1
      assertThat(
              Pairing.pairingProductIsOne(
                  List.of(p.mul(a), p.mul(ab.add(BigInteger.ONE)).neg()), List.of(q.mul(b), q)))
          .isFalse();
      assertThat(Pairing.pairingsEqual(p.mul(a), q, p, q.mul(a))).isTrue();
      assertThat(Pairing.pairingsEqual(p.mul(a), q, p, q.mul(a.add(BigInteger.ONE)))).isFalse();
    }
  }

  @Test
  void linearityInEachArgument() {
    G1 p1 = CurveTestSupport.g1(rnd);
    G1 p2 = CurveTestSupport.g1(rnd);
    G2 q1 = CurveTestSupport.g2(rnd);
    G2 q2 = CurveTestSupport.g2(rnd);
    // e(P1 + P2, Q) = e(P1, Q) e(P2, Q)
    assertThat(
            Pairing.pairingProductIsOne(
                List.of(p1.add(p2), p1.neg(), p2.neg()), List.of(q1, q1, q1)))
        .isTrue();
    // e(P, Q1 + Q2) = e(P, Q1) e(P, Q2)
    assertThat(
            Pairing.pairingProductIsOne(
                List.of(p1, p1.neg(), p1.neg()), List.of(q1.add(q2), q1, q2)))
        .isTrue();
    // dropping one factor breaks it
    assertThat(Pairing.pairingProductIsOne(List.of(p1.add(p2), p1.neg()), List.of(q1, q1)))
        .isFalse();
    // a Groth16-shaped check: e(A, B) = e(alpha, beta) e(C, delta) with A = alpha + C', B = beta
    G1 alpha = CurveTestSupport.g1(rnd);
    G2 beta = CurveTestSupport.g2(rnd);
    assertThat(
            Pairing.pairingProductIsOne(
                List.of(alpha.add(p1), alpha.neg(), p1.neg()), List.of(beta, beta, beta)))
        .isTrue();
  }

  @Test
  void nonDegenerateAndIdentities() {
    G1 g = G1.generator();
    G2 h = G2.generator();
    assertThat(Pairing.pairingProductIsOne(List.of(g), List.of(h))).isFalse();
    assertThat(Pairing.pairingProductIsOne(List.of(g, g), List.of(h, h.neg()))).isTrue();
    assertThat(Pairing.pairingProductIsOne(List.of(G1.identity()), List.of(h))).isTrue();
    assertThat(Pairing.pairingProductIsOne(List.of(g), List.of(G2.identity()))).isTrue();
    assertThat(Pairing.pairingProductIsOne(List.of(), List.of())).isTrue();
    assertThat(Pairing.pairingProductIsOne(List.of(G1.identity(), g), List.of(h, h))).isFalse();
    // e(G, H)^(r-1) * e(G, H) == 1: GT has order r
    assertThat(
            Pairing.pairingProductIsOne(
                List.of(g.mul(R.subtract(BigInteger.ONE)), g), List.of(h, h)))
        .isTrue();
  }

  @Test
  void mismatchedSizesAreRejected() {
    assertThatThrownBy(() -> Pairing.pairingProductIsOne(List.of(G1.generator()), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 G1 points but 0 G2 points");
  }
}
