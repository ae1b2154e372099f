package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Bases;
import java.util.List;
import java.util.Objects;

/**
 * An immutable Groth16 proving key for one circuit (identified by its {@link Circuit.Params}). Query lengths: a, b_g1,
 * b_g2: m (one per variable); h: N-1 ([τ^i·Z(τ)/δ]_1, i &lt; N-1); l: m-p-1 (one per private variable, in variable
 * order from p+1). The queries are held as prepared MSM bases (affine points and negations, built once here).
 */
public final class ProvingKey {
  private final Circuit.Params params;
  private final G1 alphaG1;
  private final G1 betaG1;
  private final G2 betaG2;
  private final G1 deltaG1;
  private final G2 deltaG2;
  private final G1Bases aQuery;
  private final G1Bases bG1Query;
  private final G2Bases bG2Query;
  private final G1Bases hQuery;
  private final G1Bases lQuery;

  /** Validates the query lengths against the parameters and prepares the MSM bases. */
  public ProvingKey(Circuit.Params params, G1 alphaG1, G1 betaG1, G2 betaG2, G1 deltaG1, G2 deltaG2,
      List<G1> aQuery, List<G1> bG1Query, List<G2> bG2Query, List<G1> hQuery, List<G1> lQuery) {
    this.params = Objects.requireNonNull(params, "params");
    this.alphaG1 = Objects.requireNonNull(alphaG1, "alphaG1");
    this.betaG1 = Objects.requireNonNull(betaG1, "betaG1");
    this.betaG2 = Objects.requireNonNull(betaG2, "betaG2");
    this.deltaG1 = Objects.requireNonNull(deltaG1, "deltaG1");
    this.deltaG2 = Objects.requireNonNull(deltaG2, "deltaG2");
    int m = numVariables(params);
    int n = 1 << params.logN();
    checkLength("a_query", aQuery.size(), m);
    checkLength("b_g1_query", bG1Query.size(), m);
    checkLength("b_g2_query", bG2Query.size(), m);
    checkLength("h_query", hQuery.size(), n - 1);
    checkLength("l_query", lQuery.size(), m - params.publicInputs() - 1);
    this.aQuery = G1Bases.of(aQuery);
    this.bG1Query = G1Bases.of(bG1Query);
    this.bG2Query = G2Bases.of(bG2Query);
    this.hQuery = G1Bases.of(hQuery);
    this.lQuery = G1Bases.of(lQuery);
  }

  /** m for a circuit of these parameters (N + {@link Circuit#PRIVATE_SEEDS}). */
  static int numVariables(Circuit.Params params) {
    return (1 << params.logN()) + Circuit.PRIVATE_SEEDS;
  }

  private static void checkLength(String what, int got, int expected) {
    if (got != expected) {
      throw new IllegalArgumentException(what + " has " + got + " points, the circuit needs " + expected);
    }
  }

  /** The parameters of the circuit this key proves. */
  public Circuit.Params params() {
    return params;
  }

  /** [α]_1. */
  public G1 alphaG1() {
    return alphaG1;
  }

  /** [β]_1. */
  public G1 betaG1() {
    return betaG1;
  }

  /** [β]_2. */
  public G2 betaG2() {
    return betaG2;
  }

  /** [δ]_1. */
  public G1 deltaG1() {
    return deltaG1;
  }

  /** [δ]_2. */
  public G2 deltaG2() {
    return deltaG2;
  }

  /** [u_j(τ)]_1 for every variable j. */
  public G1Bases aQuery() {
    return aQuery;
  }

  /** [v_j(τ)]_1 for every variable j. */
  public G1Bases bG1Query() {
    return bG1Query;
  }

  /** [v_j(τ)]_2 for every variable j. */
  public G2Bases bG2Query() {
    return bG2Query;
  }

  /** [τ^i·Z(τ)/δ]_1 for i in [0, N-1). */
  public G1Bases hQuery() {
    return hQuery;
  }

  /** [(β·u_j(τ) + α·v_j(τ) + w_j(τ))/δ]_1 for the private variables j = p+1..m-1. */
  public G1Bases lQuery() {
    return lQuery;
  }

  /** Point-by-point equality (for key-file round trips). */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ProvingKey)) {
      return false;
    }
    ProvingKey k = (ProvingKey) o;
    return params.equals(k.params) && alphaG1.equals(k.alphaG1) && betaG1.equals(k.betaG1)
        && betaG2.equals(k.betaG2) && deltaG1.equals(k.deltaG1) && deltaG2.equals(k.deltaG2)
        && aQuery.toList().equals(k.aQuery.toList()) && bG1Query.toList().equals(k.bG1Query.toList())
        && bG2Query.toList().equals(k.bG2Query.toList()) && hQuery.toList().equals(k.hQuery.toList())
        && lQuery.toList().equals(k.lQuery.toList());
  }

  @Override
  public int hashCode() {
    return Objects.hash(params, alphaG1, betaG2, deltaG2);
  }

  @Override
  public String toString() {
    return "ProvingKey(" + params + ", m=" + aQuery.size() + ")";
  }
}
