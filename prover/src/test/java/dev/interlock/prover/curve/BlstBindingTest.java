package dev.interlock.prover.curve;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import supranational.blst.P1;
import supranational.blst.P1_Affine;
import supranational.blst.P2;
import supranational.blst.PT;

/**
 * Pins down the jblst (SWIG) semantics the curve layer relies on: arithmetic methods mutate and
 * return their receiver, conversions and dup() return independent objects. If a jblst upgrade
 * changes this, the immutable wrappers must be revisited.
 */
class BlstBindingTest {
  @Test
  void arithmeticMutatesAndReturnsTheReceiver() {
    P1 g = P1.generator();
    P1 a = g.dup();
    assertThat(a.add(g)).isSameAs(a);
    assertThat(a.is_equal(g)).isFalse();
    P1 b = g.dup();
    assertThat(b.dbl()).isSameAs(b);
    assertThat(b.is_equal(a)).isTrue(); // G + G == 2G
    P1 c = g.dup();
    assertThat(c.neg()).isSameAs(c);
    assertThat(c.is_equal(g)).isFalse();
    P1 d = g.dup();
    assertThat(d.mult(BigInteger.valueOf(2))).isSameAs(d);
    assertThat(d.is_equal(a)).isTrue();
    P1 e = g.dup();
    assertThat(e.cneg(true)).isSameAs(e);
    assertThat(e.is_equal(c)).isTrue();
    P2 h = P2.generator();
    P2 f = h.dup();
    assertThat(f.add(h)).isSameAs(f);
    assertThat(f.is_equal(h)).isFalse();
    // the argument is not modified, and generator() is a fresh object every time
    assertThat(g.is_equal(P1.generator())).isTrue();
    assertThat(P1.generator()).isNotSameAs(P1.generator());
  }

  @Test
  void conversionsAndDupAreIndependent() {
    P1 g = P1.generator();
    P1_Affine a = g.to_affine();
    g.dbl();
    assertThat(a.is_equal(P1_Affine.generator())).isTrue();
    P1 j = a.to_jacobian();
    j.neg();
    assertThat(a.is_equal(P1_Affine.generator())).isTrue();
    P1 k = P1.generator();
    P1 copy = k.dup();
    copy.dbl();
    assertThat(k.is_equal(P1.generator())).isTrue();
  }

  @Test
  void gtOperationsMutateTheReceiverToo() {
    PT ml = new PT(P1_Affine.generator(), P2.generator().to_affine());
    PT copy = ml.dup();
    assertThat(ml.mul(copy)).isSameAs(ml);
    assertThat(ml.is_equal(copy)).isFalse();
    PT fe = copy.dup();
    assertThat(fe.final_exp()).isSameAs(fe);
    assertThat(fe.is_equal(copy)).isFalse();
    // e(G, H) * e(-G, H) is one only after the final exponentiation
    PT prod = new PT(P1_Affine.generator(), P2.generator().to_affine());
    prod.mul(new PT(P1.generator().neg().to_affine(), P2.generator().to_affine()));
    assertThat(prod.final_exp().is_one()).isTrue();
    assertThat(new PT(P1_Affine.generator(), P2.generator().to_affine()).is_one()).isFalse();
  }
}
