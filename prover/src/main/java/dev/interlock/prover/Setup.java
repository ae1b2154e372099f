package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.field.Domain;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Groth16 trusted setup for one circuit (a single-party, in-process ceremony: fine for tests and benchmarks, not for
 * production keys). Deterministic given the random generator.
 *
 * <p>With toxic waste τ, α, β, γ, δ, the QAP polynomials u_j, v_j, w_j (the interpolations of column j of A, B, C over
 * the NTT domain H = {ω^i}) are evaluated at τ through the Lagrange basis L_i(τ) = ω^i·(τ^N - 1) / (N·(τ - ω^i)) (one
 * batch inversion), and every key point is a fixed-base multiple of a generator ({@link FixedBase}).
 */
public final class Setup {
  private Setup() {}

  /** Draws the toxic waste from rng (τ outside H, the others non-zero) and builds the keys. */
  public static Keys generate(Circuit circuit, RandomGenerator rng) {
    return generate(circuit, rng, G1FixedBase.CPU);
  }

  /** {@link #generate(Circuit, RandomGenerator)} with the G1 fixed-base multiplications done by {@code g1}. */
  public static Keys generate(Circuit circuit, RandomGenerator rng, G1FixedBase g1) {
    Objects.requireNonNull(circuit, "circuit");
    Objects.requireNonNull(g1, "g1");
    Objects.requireNonNull(rng, "rng");
    Domain domain = Domain.of(circuit.logN());
    FrElement tau;
    do {
      tau = FrElement.random(rng);
    } while (domain.vanishing(tau).isZero());
    FrElement alpha = nonZero(rng);
    FrElement beta = nonZero(rng);
    FrElement gamma = nonZero(rng);
    FrElement delta = nonZero(rng);
    return generate(circuit, tau, alpha, beta, gamma, delta, g1);
  }

  private static FrElement nonZero(RandomGenerator rng) {
    FrElement x;
    do {
      x = FrElement.random(rng);
    } while (x.isZero());
    return x;
  }

  /** The keys for explicit toxic waste (τ must lie outside the domain, the others non-zero). */
  static Keys generate(Circuit circuit, FrElement tau, FrElement alpha, FrElement beta, FrElement gamma,
      FrElement delta) {
    return generate(circuit, tau, alpha, beta, gamma, delta, G1FixedBase.CPU);
  }

  private static Keys generate(Circuit circuit, FrElement tau, FrElement alpha, FrElement beta, FrElement gamma,
      FrElement delta, G1FixedBase g1) {
    int n = circuit.size();
    int m = circuit.numVariables();
    int p = circuit.publicInputs();
    Domain domain = Domain.of(circuit.logN());
    FrElement zTau = domain.vanishing(tau);
    if (zTau.isZero() || alpha.isZero() || beta.isZero() || gamma.isZero() || delta.isZero()) {
      throw new IllegalArgumentException("degenerate toxic waste");
    }
    long[] lagrange = lagrangeAt(domain, tau, zTau);
    long[] u = columnEvaluations(circuit.a(), lagrange);
    long[] v = columnEvaluations(circuit.b(), lagrange);
    long[] w = columnEvaluations(circuit.c(), lagrange);

    // (β·u_j + α·v_j + w_j), divided by γ for the inputs and by δ for the private variables
    long[] k = Fr.newVector(m);
    long[] t = Fr.newVector(1);
    long[] consts = Fr.newVector(4);
    beta.writeTo(consts, 0);
    alpha.writeTo(consts, 1);
    gamma.inverse().writeTo(consts, 2);
    delta.inverse().writeTo(consts, 3);
    for (int j = 0; j < m; j++) {
      Fr.mul(u, j, consts, 0, k, j);
      Fr.mul(v, j, consts, 1, t, 0);
      Fr.add(k, j, t, 0, k, j);
      Fr.add(k, j, w, j, k, j);
      Fr.mul(k, j, consts, j <= p ? 2 : 3, k, j);
    }
    long[] icScalars = Arrays.copyOf(k, Fr.LIMBS * (p + 1));
    long[] lScalars = Arrays.copyOfRange(k, Fr.LIMBS * (p + 1), Fr.LIMBS * m);

    // τ^i·Z(τ)/δ for i < N-1
    long[] hScalars = Fr.newVector(n - 1);
    zTau.mul(delta.inverse()).writeTo(hScalars, 0);
    long[] tauV = Fr.newVector(1);
    tau.writeTo(tauV, 0);
    for (int i = 1; i < n - 1; i++) {
      Fr.mul(hScalars, i - 1, tauV, 0, hScalars, i);
    }

    FixedBase<G2> g2 = FixedBase.g2();
    G1 alphaG1 = G1.generator().mul(alpha.toBigInteger());
    G1 betaG1 = G1.generator().mul(beta.toBigInteger());
    G2 betaG2 = G2.generator().mul(beta.toBigInteger());
    G1 deltaG1 = G1.generator().mul(delta.toBigInteger());
    G2 deltaG2 = G2.generator().mul(delta.toBigInteger());
    G2 gammaG2 = G2.generator().mul(gamma.toBigInteger());
    List<G1> aQuery = List.of(g1.mulAll(u));
    List<G1> bG1Query = List.of(g1.mulAll(v));
    List<G2> bG2Query = List.of(g2.mulAll(v, G2[]::new));
    List<G1> hQuery = List.of(g1.mulAll(hScalars));
    List<G1> lQuery = List.of(g1.mulAll(lScalars));
    List<G1> ic = List.of(g1.mulAll(icScalars));
    ProvingKey pk = new ProvingKey(circuit.params(), alphaG1, betaG1, betaG2, deltaG1, deltaG2, aQuery, bG1Query,
        bG2Query, hQuery, lQuery);
    VerifyingKey vk = new VerifyingKey(alphaG1, betaG2, gammaG2, deltaG2, ic);
    return new Keys(pk, vk);
  }

  /** L_i(τ) = ω^i·Z(τ) / (N·(τ - ω^i)) for every i, as a Montgomery vector. */
  static long[] lagrangeAt(Domain domain, FrElement tau, FrElement zTau) {
    int n = domain.size();
    long[] omegaPow = Fr.newVector(n);
    long[] den = Fr.newVector(n);
    long[] c = Fr.newVector(3);
    domain.omega().writeTo(c, 0);
    tau.writeTo(c, 1);
    zTau.mul(domain.sizeInverse()).writeTo(c, 2);
    Fr.setOne(omegaPow, 0);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        Fr.mul(omegaPow, i - 1, c, 0, omegaPow, i);
      }
      Fr.sub(c, 1, omegaPow, i, den, i);
    }
    Fr.batchInverse(den);
    for (int i = 0; i < n; i++) {
      Fr.mul(den, i, omegaPow, i, den, i);
      Fr.mul(den, i, c, 2, den, i);
    }
    return den;
  }

  /** e_j = Σ_i M[i][j]·L_i(τ) for every column j of the matrix (the column polynomials at τ). */
  static long[] columnEvaluations(SparseMatrix matrix, long[] lagrange) {
    long[] out = Fr.newVector(matrix.columns());
    long[] coeffs = matrix.coefficientLimbs();
    long[] t = Fr.newVector(1);
    for (int i = 0; i < matrix.rows(); i++) {
      for (int k = matrix.rowStart(i), end = matrix.rowStart(i + 1); k < end; k++) {
        int j = matrix.column(k);
        Fr.mul(coeffs, k, lagrange, i, t, 0);
        Fr.add(out, j, t, 0, out, j);
      }
    }
    return out;
  }
}
