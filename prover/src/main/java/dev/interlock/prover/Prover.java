package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.field.Domain;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import dev.interlock.prover.field.Ntt;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;

/**
 * The Groth16 prover, split into the stages of a GPU proving engine so that an engine can run each under its own
 * locks and on its own device. These methods are the CPU's; an engine runs ntt_h and msm on its device through the
 * workload module's proving kernels, which compute the same values:
 *
 * <ol>
 *   <li>{@link #synthesize} (CPU): witness → a, b, c evaluation vectors;
 *   <li>{@link #computeH} (ntt_h): a, b, c → the N-1 coefficients of H = (a·b - c)/Z;
 *   <li>{@link #msm} (msm): the four G1 MSMs over a, b_g1, l, h queries;
 *   <li>{@link #bG2Msm} (b_g2_msm, CPU): the G2 MSM over b_g2 query;
 *   <li>{@link #epilogue} (CPU): blinding with random r, s into the proof.
 * </ol>
 *
 * Only the epilogue draws randomness, so running the stages one by one with a given rng gives the same proof as
 * {@link #prove} with an rng in the same state.
 */
public final class Prover {
  private static final int PARALLEL_ROWS = 1 << 14;
  private static final int CHUNK = 1 << 12;

  private Prover() {}

  /** All stages on the CPU. */
  public static Proof prove(ProvingKey pk, Circuit circuit, Witness witness, RandomGenerator rng) {
    requireMatch(pk, circuit);
    Synthesized s = synthesize(circuit, witness);
    long[] h = computeH(s);
    MsmResults msm = msm(pk, witness, h);
    G2 bG2 = bG2Msm(pk, witness);
    return epilogue(pk, msm, bG2, rng);
  }

  /** Throws IllegalArgumentException unless pk was generated for this circuit. */
  static void requireMatch(ProvingKey pk, Circuit circuit) {
    if (!pk.params().equals(circuit.params())) {
      throw new IllegalArgumentException(
          "proving key is for circuit (" + pk.params() + "), not (" + circuit.params() + ")");
    }
  }

  /**
   * Stage synthesize: a_i = Σ_j A[i][j]·w_j, b_i, c_i likewise, for every constraint i. In: the circuit and a witness
   * of it. Out: three new Montgomery vectors of N elements. Rows are evaluated in parallel for large N.
   */
  public static Synthesized synthesize(Circuit circuit, Witness witness) {
    circuit.requireOwn(witness);
    long[] w = witness.values();
    int n = circuit.size();
    long[] a = Fr.newVector(n);
    long[] b = Fr.newVector(n);
    long[] c = Fr.newVector(n);
    IntStream chunks = IntStream.range(0, (n + CHUNK - 1) / CHUNK);
    if (n >= PARALLEL_ROWS) {
      chunks = chunks.parallel();
    }
    chunks.forEach(k -> {
      long[] scratch = Fr.newVector(1);
      for (int i = k * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
        circuit.a().evaluateRow(i, w, a, i, scratch);
        circuit.b().evaluateRow(i, w, b, i, scratch);
        circuit.c().evaluateRow(i, w, c, i, scratch);
      }
    });
    return new Synthesized(circuit.logN(), a, b, c);
  }

  /**
   * Stage ntt_h: the coefficients h_0..h_{N-2} of H(x) = (A(x)B(x) - C(x)) / Z(x), where A, B, C interpolate a, b, c
   * over H: inverse NTT of a, b, c; forward NTT on the coset g·H; there h = (a·b - c)·Z(g)^-1 (Z is the constant
   * g^N - 1 on the coset); inverse coset NTT. Consumes s (its vectors are overwritten). Out: a new Montgomery vector
   * of N-1 elements. Throws IllegalArgumentException when the top coefficient h_{N-1} is non-zero, which proves the
   * witness unsatisfying (the converse holds only with high probability).
   */
  public static long[] computeH(Synthesized s) {
    int logN = s.logN();
    int n = 1 << logN;
    long[][] abc = s.take();
    long[] h = quotient(abc[0], abc[1], abc[2], logN);
    requireDivisible(h, n - 1);
    return Arrays.copyOf(h, Fr.LIMBS * (n - 1));
  }

  /**
   * Throws IllegalArgumentException unless element {@code top} of {@code v} (H's coefficient N-1, as {@link #quotient}
   * leaves it) is zero, i.e. unless Z divides A·B - C and the witness satisfies the circuit.
   */
  public static void requireDivisible(long[] v, int top) {
    if (!Fr.isZero(v, top)) {
      throw new IllegalArgumentException(
          "witness does not satisfy the circuit: A·B - C is not divisible by Z (H has degree N-1)");
    }
  }

  /**
   * The n coefficients of (A·B - C)/Z from the evaluations a, b, c of A, B, C on the domain H (each overwritten; the
   * result is a): interpolate, evaluate on the coset g·H where Z is the constant g^n - 1, divide pointwise, and
   * interpolate back. Coefficient n-1 is zero exactly when Z divides A·B - C. The same steps as a device's {@code
   * quotient} kernel.
   */
  public static long[] quotient(long[] a, long[] b, long[] c, int logN) {
    int n = 1 << logN;
    Ntt.inverse(a, logN);
    Ntt.inverse(b, logN);
    Ntt.inverse(c, logN);
    Ntt.cosetForward(a, logN);
    Ntt.cosetForward(b, logN);
    Ntt.cosetForward(c, logN);
    long[] zInv = Fr.newVector(1);
    Domain.of(logN).vanishingOnCoset().inverse().writeTo(zInv, 0);
    IntStream chunks = IntStream.range(0, (n + CHUNK - 1) / CHUNK);
    if (n >= PARALLEL_ROWS) {
      chunks = chunks.parallel();
    }
    chunks.forEach(k -> {
      for (int i = k * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
        Fr.mul(a, i, b, i, a, i);
        Fr.sub(a, i, c, i, a, i);
        Fr.mul(a, i, zInv, 0, a, i);
      }
    });
    Ntt.cosetInverse(a, logN);
    return a;
  }

  /**
   * Stage msm: the four G1 MSMs. In: the key, the witness (converted to canonical limbs once, cached on it) and H's
   * N-1 coefficients (Montgomery, converted here). Out: {@link MsmResults}. The three over the witness (a, b_g1, l)
   * are split into batch additions of the bases whose scalar is 1 and a tail MSM where the witness is mostly 0/1
   * ({@link Msm#msmSplit}); H's coefficients are full-width, so its MSM is the plain one.
   */
  public static MsmResults msm(ProvingKey pk, Witness witness, long[] h) {
    requireWitness(pk, witness);
    int n = 1 << pk.params().logN();
    if (Fr.size(h) != n - 1) {
      throw new IllegalArgumentException("h must hold N-1 = " + (n - 1) + " coefficients, got " + Fr.size(h));
    }
    long[] w = witness.canonicalLimbs();
    long[] hc = Fr.toCanonical(h, 0, n - 1);
    long[] priv = Arrays.copyOfRange(w, Fr.LIMBS * (pk.params().publicInputs() + 1), w.length);
    G1 a = Msm.msmSplit(pk.aQuery(), w);
    G1 bG1 = Msm.msmSplit(pk.bG1Query(), w);
    G1 l = Msm.msmSplit(pk.lQuery(), priv);
    G1 hSum = Msm.msm(pk.hQuery(), hc);
    return new MsmResults(a, bG1, l, hSum);
  }

  /**
   * Stage b_g2_msm (CPU): Σ_j w_j·b_g2_query[j] in G2, split into batch additions and a tail MSM where the witness
   * is mostly 0/1 ({@link Msm#msmSplit}).
   */
  public static G2 bG2Msm(ProvingKey pk, Witness witness) {
    requireWitness(pk, witness);
    return Msm.msmSplit(pk.bG2Query(), witness.canonicalLimbs());
  }

  /**
   * The 0/1 part of a split b_g2_msm, as cuzk splits it: a vector (Montgomery form) with 1 where the witness is 1 and 0
   * elsewhere, whose MSM with the b_g2 query is the sum of the bases whose scalar is 1 (the device's batch additions).
   * With {@link #bG2Tail} it gives {@link #bG2Msm}.
   */
  public static long[] bG2OnesMask(Witness witness) {
    long[] w = witness.canonicalLimbs();
    int m = witness.size();
    long[] mask = Fr.newVector(m);
    for (int i = 0; i < m; i++) {
      if (Msm.isOne(w, i)) {
        FrElement.ONE.writeTo(mask, i);
      }
    }
    return mask;
  }

  /**
   * The host's part of a split b_g2_msm: the G2 MSM over the witness's scalars that are neither 0 nor 1 (the ones are
   * left to {@link #bG2OnesMask}'s sum on the device), by blst's tail MSM as {@link Msm#msmSplit} runs it.
   */
  public static G2 bG2Tail(ProvingKey pk, Witness witness) {
    requireWitness(pk, witness);
    return Msm.msmOfFullScalars(pk.bG2Query(), witness.canonicalLimbs());
  }

  private static void requireWitness(ProvingKey pk, Witness witness) {
    Objects.requireNonNull(witness, "witness");
    if (!witness.params().equals(pk.params())) {
      throw new IllegalArgumentException(
          "witness is for circuit (" + witness.params() + "), proving key for (" + pk.params() + ")");
    }
  }

  /**
   * Stage epilogue: draws r, s from rng and assembles A = α + a + r·δ, B = β + bG2 + s·δ (in G2), and C = l + h +
   * s·A + r·B_g1 - r·s·δ with B_g1 = β + bG1 + s·δ (in G1).
   */
  public static Proof epilogue(ProvingKey pk, MsmResults msm, G2 bG2, RandomGenerator rng) {
    Objects.requireNonNull(bG2, "bG2");
    FrElement r = FrElement.random(rng);
    FrElement s = FrElement.random(rng);
    BigInteger rb = r.toBigInteger();
    BigInteger sb = s.toBigInteger();
    BigInteger rs = r.mul(s).toBigInteger();
    G1 a = pk.alphaG1().add(msm.a()).add(pk.deltaG1().mul(rb));
    G2 b = pk.betaG2().add(bG2).add(pk.deltaG2().mul(sb));
    G1 bG1 = pk.betaG1().add(msm.bG1()).add(pk.deltaG1().mul(sb));
    G1 c = msm.l().add(msm.h()).add(a.mul(sb)).add(bG1.mul(rb)).sub(pk.deltaG1().mul(rs));
    return new Proof(a, b, c);
  }
}
