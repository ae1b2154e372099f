package dev.interlock.prover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.field.Domain;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SetupTest {
  @Test
  void lagrangeBasisInterpolatesAtTau() {
    SplittableRandom rnd = Groth16TestSupport.random("SetupTest.lagrangeBasisInterpolatesAtTau", 30);
    for (int logN = 1; logN <= 8; logN++) {
      Domain d = Domain.of(logN);
      FrElement tau = FrElement.random(rnd);
      long[] l = Setup.lagrangeAt(d, tau, d.vanishing(tau));
      long[] coeffs = Fr.newVector(d.size());
      for (int i = 0; i < d.size(); i++) {
        Fr.random(rnd, coeffs, i);
      }
      long[] evals = coeffs.clone();
      d.forward(evals);
      FrElement sum = FrElement.ZERO;
      for (int i = 0; i < d.size(); i++) {
        sum = sum.add(FrElement.read(evals, i).mul(FrElement.read(l, i)));
      }
      assertThat(sum).as("logN=%d", logN).isEqualTo(ProverTest.eval(coeffs, tau));
    }
  }

  @Test
  void keysHoldTheDocumentedPoints() {
    SplittableRandom rnd = Groth16TestSupport.random("SetupTest.keysHoldTheDocumentedPoints", 31);
    Circuit circuit = Circuit.synthetic(5, 2, 8);
    FrElement tau = FrElement.random(rnd);
    FrElement alpha = FrElement.random(rnd);
    FrElement beta = FrElement.random(rnd);
    FrElement gamma = FrElement.random(rnd);
    FrElement delta = FrElement.random(rnd);
    Keys keys = Setup.generate(circuit, tau, alpha, beta, gamma, delta);
    ProvingKey pk = keys.pk();
    Domain d = Domain.of(circuit.logN());
    assertThat(pk.alphaG1()).isEqualTo(g1(alpha));
    assertThat(pk.betaG1()).isEqualTo(g1(beta));
    assertThat(pk.betaG2()).isEqualTo(g2(beta));
    assertThat(pk.deltaG1()).isEqualTo(g1(delta));
    assertThat(pk.deltaG2()).isEqualTo(g2(delta));
    assertThat(keys.vk().gammaG2()).isEqualTo(g2(gamma));
    int p = circuit.publicInputs();
    for (int j : new int[] {0, 1, p, p + 1, circuit.numVariables() - 1}) {
      FrElement u = columnAt(circuit.a(), j, tau, d);
      FrElement v = columnAt(circuit.b(), j, tau, d);
      FrElement w = columnAt(circuit.c(), j, tau, d);
      assertThat(pk.aQuery().get(j)).as("a_query[%d]", j).isEqualTo(g1(u));
      assertThat(pk.bG1Query().get(j)).isEqualTo(g1(v));
      assertThat(pk.bG2Query().get(j)).isEqualTo(g2(v));
      FrElement k = beta.mul(u).add(alpha.mul(v)).add(w);
      if (j <= p) {
        assertThat(keys.vk().ic().get(j)).isEqualTo(g1(k.mul(gamma.inverse())));
      } else {
        assertThat(pk.lQuery().get(j - p - 1)).isEqualTo(g1(k.mul(delta.inverse())));
      }
    }
    for (int i : new int[] {0, 1, circuit.size() - 2}) {
      assertThat(pk.hQuery().get(i)).isEqualTo(g1(tau.pow(i).mul(d.vanishing(tau)).mul(delta.inverse())));
    }
  }

  /** Column j of a matrix interpolated over the domain (dense inverse NTT) and evaluated at tau. */
  private static FrElement columnAt(SparseMatrix m, int j, FrElement tau, Domain d) {
    long[] col = Fr.newVector(d.size());
    for (int i = 0; i < m.rows(); i++) {
      for (int k = m.rowStart(i); k < m.rowStart(i + 1); k++) {
        if (m.column(k) == j) {
          FrElement.read(col, i).add(m.coefficient(k)).writeTo(col, i);
        }
      }
    }
    d.inverse(col);
    return ProverTest.eval(col, tau);
  }

  @Test
  void fixedBaseMatchesScalarMultiplication() {
    SplittableRandom rnd = Groth16TestSupport.random("SetupTest.fixedBaseMatchesScalarMultiplication", 32);
    BigInteger r = Fr.MODULUS;
    BigInteger[] edge = {BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, BigInteger.valueOf(1023),
        BigInteger.valueOf(1024), BigInteger.ONE.shiftLeft(250).subtract(BigInteger.ONE), BigInteger.ONE.shiftLeft(254),
        r.subtract(BigInteger.ONE), r.subtract(BigInteger.TWO)};
    long[] v = Fr.newVector(edge.length + 20);
    for (int i = 0; i < edge.length; i++) {
      Fr.fromBigInteger(edge[i], v, i);
    }
    for (int i = edge.length; i < Fr.size(v); i++) {
      Fr.random(rnd, v, i);
    }
    G1[] g1 = FixedBase.g1().mulAll(v, G1[]::new);
    G2[] g2 = FixedBase.g2().mulAll(v, G2[]::new);
    for (int i = 0; i < Fr.size(v); i++) {
      BigInteger k = Fr.toBigInteger(v, i);
      assertThat(g1[i]).as("k=%s", k).isEqualTo(G1.generator().mul(k));
      assertThat(g2[i]).as("k=%s", k).isEqualTo(G2.generator().mul(k));
    }
    assertThat(g1[0].isIdentity()).isTrue();
  }

  @Test
  void setupIsDeterministicInItsRandomness() {
    Circuit circuit = Circuit.synthetic(4, 1, 3);
    Keys a = Setup.generate(circuit, new SplittableRandom(9));
    Keys b = Setup.generate(circuit, new SplittableRandom(9));
    Keys c = Setup.generate(circuit, new SplittableRandom(10));
    assertThat(a.pk()).isEqualTo(b.pk());
    assertThat(a.vk()).isEqualTo(b.vk());
    assertThat(a.vk()).isNotEqualTo(c.vk());
  }

  @Test
  void partitionSizesFollowTheFormula() {
    Circuit circuit = Circuit.synthetic(10, 3, 1);
    PartitionSizes s = PartitionSizes.of(circuit);
    long n = 1024;
    long m = n + Circuit.PRIVATE_SEEDS;
    assertThat(s.abcBytes()).isEqualTo(3 * n * 32);
    assertThat(s.hScratchBytes()).isEqualTo(n * 32);
    assertThat(s.witnessBytes()).isEqualTo(m * 32);
    assertThat(s.aBasesBytes()).isEqualTo(m * 96);
    assertThat(s.bG1BasesBytes()).isEqualTo(m * 96);
    assertThat(s.lBasesBytes()).isEqualTo((m - 4) * 96);
    assertThat(s.hBasesBytes()).isEqualTo((n - 1) * 96);
    assertThat(s.totalBytes()).isEqualTo(4 * n * 32 + m * 32 + (2 * m + m - 4 + n - 1) * 96);
    assertThat(PartitionSizes.of(Circuit.synthetic(11, 3, 1)).totalBytes()).isGreaterThan(s.totalBytes());
  }

  private static G1 g1(FrElement k) {
    return G1.generator().mul(k.toBigInteger());
  }

  private static G2 g2(FrElement k) {
    return G2.generator().mul(k.toBigInteger());
  }
}
