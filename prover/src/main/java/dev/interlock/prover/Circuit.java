package dev.interlock.prover;

import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * A synthetic R1CS instance A·w ∘ B·w = C·w with exactly N = 2^logN constraints, shaped like a real circuit, for
 * exercising the prover at any size.
 *
 * <p>Variables: index 0 is the constant one, 1..p the public inputs, then {@value #PRIVATE_SEEDS} private seeds (free
 * witness values), then one private variable per regular constraint, so m = N + {@value #PRIVATE_SEEDS} variables.
 *
 * <p>Rows (all derived from {@code structureSeed} with a SplittableRandom, so a parameter set always gives the same
 * circuit):
 *
 * <ul>
 *   <li>rows 0..p, one per input variable x_i (the one and each public input): bellman's {@code x_i · 0 = 0}, A =
 *       {x_i}, B and C empty. They make the u_i of the inputs linearly independent, so a proof binds its inputs.
 *   <li>rows p+1..N-1, regular: row r (r = 0, 1, ...) defines the new variable v = p + 3 + r. Which rows depends on
 *       the {@link WitnessShape}:
 *       <ul>
 *         <li>{@link WitnessShape.Kind#FIELD}: every regular row is {@code (Σ c_k · w_{j_k}) · (w_j' [+ c'·1]) = v}. A
 *             has 1, 2 or 3 distinct terms with probabilities 40/35/25 %; each coefficient is 1 (50 %), -1 (15 %) or
 *             uniform in [2, 2^16) (35 %). B has 1 term (90 %, coefficient 1) or 2 terms (10 %: the variable plus a
 *             constant in [1, 2^16) times the one). C has exactly 1 term (v, 1). Operand variables are earlier ones
 *             (index below v): with probability 1/2 among the 64 most recent, else uniform, for a little locality.
 *             Regular row r &lt; p puts public input r+1 as its first A term and row r &lt; {@value #PRIVATE_SEEDS}
 *             uses seed r as its B variable, so every input and seed is used.
 *         <li>{@link WitnessShape.Kind#FILECOIN}: the first max(p, {@value #PRIVATE_SEEDS}) regular rows, and each
 *             later one with probability fullScalarsPpm/10^6, are full-width rows: as above, but A's first term
 *             and B's variable are full-width variables (inputs, seeds, earlier full-width rows' variables), so v
 *             is full-width too. Every other row makes a bit from earlier bits x, y (picked as above among the bit
 *             variables): a free bit {@code v · v = v} (40 %; the witness draws it), and {@code x · y = v} (25 %),
 *             xor {@code (x - y) · (x - y) = v} (25 %), and-not {@code x · (1 - y) = v} (10 %). About 38 % of the
 *             bits are 1. The witness is then 0/1 except for the inputs, the seeds and the full-width rows'
 *             variables, like the bit decompositions that fill Filecoin's circuits.
 *       </ul>
 * </ul>
 *
 * <p>Densities: field A ≈ (p+1 + 1.85·(N-p-1)) non-zeros, B ≈ 1.1·(N-p-1), C = N-p-1; Filecoin-like about 1.25·N,
 * 1.35·N and N-p-1. A witness is computed in one pass over the regular rows; a Filecoin-like one draws its free
 * bits from a SplittableRandom seeded by a digest of the inputs and seeds, so the inputs and seeds still determine it.
 * Requires 4 ≤ logN ≤ 22 and 1 ≤ p ≤ N/2 - 1. Immutable.
 */
public final class Circuit {
  /** Smallest supported logN. */
  public static final int MIN_LOG_N = 4;
  /** Largest supported logN. */
  public static final int MAX_LOG_N = 22;
  /** Number of free private variables (seeds) before the constrained ones. */
  public static final int PRIVATE_SEEDS = 2;

  /** The parameters that determine a synthetic circuit completely. */
  public record Params(int logN, int publicInputs, long structureSeed, WitnessShape witness) {
    /** Validates the ranges. */
    public Params {
      if (logN < MIN_LOG_N || logN > MAX_LOG_N) {
        throw new IllegalArgumentException("logN must be in [" + MIN_LOG_N + ", " + MAX_LOG_N + "], got " + logN);
      }
      if (publicInputs < 1 || publicInputs > (1 << logN) / 2 - 1) {
        throw new IllegalArgumentException(
            "publicInputs must be in [1, " + ((1 << logN) / 2 - 1) + "] for logN=" + logN + ", got " + publicInputs);
      }
      Objects.requireNonNull(witness, "witness");
    }

    /** The parameters of a circuit with a {@link WitnessShape#FIELD} witness. */
    public Params(int logN, int publicInputs, long structureSeed) {
      this(logN, publicInputs, structureSeed, WitnessShape.FIELD);
    }

    @Override
    public String toString() {
      return "logN=" + logN + ", publicInputs=" + publicInputs + ", structureSeed=" + structureSeed
          + (witness.equals(WitnessShape.FIELD) ? "" : ", witness=" + witness);
    }
  }

  private final Params params;
  private final SparseMatrix a;
  private final SparseMatrix b;
  private final SparseMatrix c;
  /** The free-bit rows (v·v = v), whose variable the witness draws; empty for a field witness. */
  private final BitSet freeBitRows;
  /** How many regular rows define a full-width variable. */
  private final int fullWidthRows;

  private Circuit(Params params, SparseMatrix a, SparseMatrix b, SparseMatrix c, BitSet freeBitRows, int fullWidthRows) {
    this.params = params;
    this.a = a;
    this.b = b;
    this.c = c;
    this.freeBitRows = freeBitRows;
    this.fullWidthRows = fullWidthRows;
  }

  /** The synthetic circuit with 2^logN constraints and the given number of public inputs (see the class doc). */
  public static Circuit synthetic(int logN, int publicInputs, long structureSeed) {
    return synthetic(new Params(logN, publicInputs, structureSeed));
  }

  /** The synthetic circuit of these parameters. */
  public static Circuit synthetic(Params params) {
    return new Rows(params).build();
  }

  /** Builds the three matrices row by row (see the class doc). */
  private static final class Rows {
    final Params params;
    final int n;
    final int p;
    final int regular;
    final SparseMatrix.Builder ab;
    final SparseMatrix.Builder bb;
    final SparseMatrix.Builder cb;
    final SplittableRandom rnd;
    final long[] coef = Fr.newVector(1);
    final long[] one = Fr.newVector(1);
    final long[] minusOne = Fr.newVector(1);
    final BitSet freeBitRows = new BitSet();
    int fullWidthRows;

    Rows(Params params) {
      this.params = params;
      this.n = 1 << params.logN();
      this.p = params.publicInputs();
      int m = n + PRIVATE_SEEDS;
      this.regular = n - (p + 1);
      this.ab = new SparseMatrix.Builder(n, m, p + 1 + 2 * regular);
      this.bb = new SparseMatrix.Builder(n, m, regular + regular / 4);
      this.cb = new SparseMatrix.Builder(n, m, regular);
      this.rnd = new SplittableRandom(params.structureSeed());
      Fr.setOne(one, 0);
      Fr.fromLong(-1, minusOne, 0);
    }

    Circuit build() {
      for (int i = 0; i <= p; i++) { // x_i · 0 = 0
        ab.term(i, one, 0);
        ab.endRow();
        bb.endRow();
        cb.endRow();
      }
      if (params.witness().kind() == WitnessShape.Kind.FIELD) {
        fieldRows();
      } else {
        filecoinRows();
      }
      return new Circuit(params, ab.build(), bb.build(), cb.build(), freeBitRows, fullWidthRows);
    }

    /** The regular rows of a field witness: every one a full-width product of earlier variables. */
    void fieldRows() {
      int[] picked = new int[3];
      for (int r = 0; r < regular; r++) {
        int v = p + 1 + PRIVATE_SEEDS + r;
        int terms = terms();
        for (int t = 0; t < terms; t++) {
          int j;
          do {
            j = (t == 0 && r < p) ? r + 1 : earlier(rnd, v);
          } while (pickedBefore(picked, t, j));
          picked[t] = j;
          ab.term(j, coefficient(), 0);
        }
        ab.endRow();
        int bj = r < PRIVATE_SEEDS ? p + 1 + r : earlier(rnd, v);
        bRow(bj);
        cRow(v);
        fullWidthRows++;
      }
    }

    /** Whether {@code j} is among the first {@code t} variables a row has picked (a row's terms are distinct). */
    private static boolean pickedBefore(int[] picked, int t, int j) {
      for (int q = 0; q < t; q++) {
        if (picked[q] == j) {
          return true;
        }
      }
      return false;
    }

    /**
     * The regular rows of a Filecoin-like witness: full-width rows (the first max(p, {@value #PRIVATE_SEEDS}), then
     * each with probability fullScalarsPpm/10^6) over the full-width variables, and bit rows over the bits.
     */
    void filecoinRows() {
      IntList full = new IntList(); // the full-width variables: inputs, seeds, full rows' variables
      for (int j = 1; j <= p + PRIVATE_SEEDS; j++) {
        full.add(j);
      }
      IntList bits = new IntList();
      int[] picked = new int[3];
      int ppm = params.witness().fullScalarsPpm();
      for (int r = 0; r < regular; r++) {
        int row = p + 1 + r;
        int v = p + 1 + PRIVATE_SEEDS + r;
        boolean fullRow = r < Math.max(p, PRIVATE_SEEDS) || rnd.nextInt(WitnessShape.PPM) < ppm;
        if (fullRow) {
          int terms = terms();
          for (int t = 0; t < terms; t++) {
            int j;
            do {
              j = t > 0 ? earlier(rnd, v) : r < p ? r + 1 : pick(full);
            } while (pickedBefore(picked, t, j));
            picked[t] = j;
            ab.term(j, coefficient(), 0);
          }
          ab.endRow();
          bRow(r < PRIVATE_SEEDS ? p + 1 + r : pick(full));
          cRow(v);
          full.add(v);
          fullWidthRows++;
          continue;
        }
        int kind = bits.size() == 0 ? 0 : rnd.nextInt(100);
        int x = bits.size() == 0 ? 0 : pick(bits);
        int y = bits.size() == 0 ? 0 : pick(bits);
        if (kind < 40) { // free bit: v · v = v
          ab.term(v, one, 0);
          bb.term(v, one, 0);
          freeBitRows.set(row);
        } else if (kind < 65 || x == y) { // and: x · y = v
          ab.term(x, one, 0);
          bb.term(y, one, 0);
        } else if (kind < 90) { // xor: (x - y) · (x - y) = v
          ab.term(x, one, 0);
          ab.term(y, minusOne, 0);
          bb.term(x, one, 0);
          bb.term(y, minusOne, 0);
        } else { // and-not: x · (1 - y) = v
          ab.term(x, one, 0);
          bb.term(0, one, 0);
          bb.term(y, minusOne, 0);
        }
        ab.endRow();
        bb.endRow();
        cRow(v);
        bits.add(v);
      }
    }

    /** A's term count: 1, 2 or 3 with probabilities 40/35/25 %. */
    int terms() {
      int u = rnd.nextInt(100);
      return u < 40 ? 1 : u < 75 ? 2 : 3;
    }

    /** A coefficient: 1 (50 %), -1 (15 %) or uniform in [2, 2^16) (35 %), in {@code coef}. */
    long[] coefficient() {
      int cu = rnd.nextInt(100);
      if (cu < 50) {
        Fr.setOne(coef, 0);
      } else if (cu < 65) {
        Fr.fromLong(-1, coef, 0);
      } else {
        Fr.fromLong(2 + rnd.nextInt((1 << 16) - 2), coef, 0);
      }
      return coef;
    }

    /** B = w_j, plus a constant in [1, 2^16) times the one in 10 % of the rows. */
    void bRow(int j) {
      bb.term(j, one, 0);
      if (rnd.nextInt(10) == 0 && j != 0) {
        Fr.fromLong(1 + rnd.nextInt((1 << 16) - 1), coef, 0);
        bb.term(0, coef, 0);
      }
      bb.endRow();
    }

    void cRow(int v) {
      cb.term(v, one, 0);
      cb.endRow();
    }

    /** One of the list: half the time among its 64 latest, else uniform (a little locality, as {@link #earlier}). */
    int pick(IntList list) {
      int size = list.size();
      if (size > 64 && rnd.nextBoolean()) {
        return list.get(size - 1 - rnd.nextInt(64));
      }
      return list.get(rnd.nextInt(size));
    }
  }

  /** A growable list of ints. */
  private static final class IntList {
    private int[] values = new int[16];
    private int size;

    void add(int v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, 2 * size);
      }
      values[size++] = v;
    }

    int get(int i) {
      return values[i];
    }

    int size() {
      return size;
    }
  }

  /** An earlier variable index in [0, v): half the time among the 64 most recent. */
  private static int earlier(SplittableRandom rnd, int v) {
    if (v > 64 && rnd.nextBoolean()) {
      return v - 1 - rnd.nextInt(64);
    }
    return rnd.nextInt(v);
  }

  /** The parameters this circuit was built from. */
  public Params params() {
    return params;
  }

  /** log2 of the number of constraints. */
  public int logN() {
    return params.logN();
  }

  /** N, the number of constraints (= the NTT domain size). */
  public int size() {
    return 1 << params.logN();
  }

  /** p, the number of public inputs (not counting the constant one). */
  public int publicInputs() {
    return params.publicInputs();
  }

  /** m, the number of variables including the constant one. */
  public int numVariables() {
    return a.columns();
  }

  /** The seed the structure was derived from. */
  public long structureSeed() {
    return params.structureSeed();
  }

  /** The A matrix (N rows, m columns). */
  public SparseMatrix a() {
    return a;
  }

  /** The B matrix. */
  public SparseMatrix b() {
    return b;
  }

  /** The C matrix. */
  public SparseMatrix c() {
    return c;
  }

  /** A witness with uniformly random public inputs and private seeds. */
  public Witness witness(RandomGenerator rng) {
    List<FrElement> inputs = new ArrayList<>();
    for (int i = 0; i < publicInputs(); i++) {
      inputs.add(FrElement.random(rng));
    }
    return witness(inputs, rng);
  }

  /** A witness for the given public inputs, with random private seeds. */
  public Witness witness(List<FrElement> publicInputs, RandomGenerator rng) {
    List<FrElement> seeds = new ArrayList<>();
    for (int i = 0; i < PRIVATE_SEEDS; i++) {
      seeds.add(FrElement.random(rng));
    }
    return witness(publicInputs, seeds);
  }

  /** The witness determined by the public inputs and the {@value #PRIVATE_SEEDS} private seeds (one pass). */
  public Witness witness(List<FrElement> publicInputs, List<FrElement> privateSeeds) {
    int p = publicInputs();
    if (publicInputs.size() != p || privateSeeds.size() != PRIVATE_SEEDS) {
      throw new IllegalArgumentException("circuit takes " + p + " public inputs and " + PRIVATE_SEEDS
          + " private seeds, got " + publicInputs.size() + " and " + privateSeeds.size());
    }
    long[] w = Fr.newVector(numVariables());
    Fr.setOne(w, 0);
    for (int i = 0; i < p; i++) {
      Objects.requireNonNull(publicInputs.get(i), "public input").writeTo(w, 1 + i);
    }
    for (int i = 0; i < PRIVATE_SEEDS; i++) {
      Objects.requireNonNull(privateSeeds.get(i), "private seed").writeTo(w, 1 + p + i);
    }
    long[] s = Fr.newVector(3); // A·w, B·w, scratch
    SplittableRandom bits = freeBitRows.isEmpty() ? null : new SplittableRandom(bitSeed(w, 1 + p + PRIVATE_SEEDS));
    for (int row = p + 1; row < size(); row++) {
      int v = row + PRIVATE_SEEDS;
      if (freeBitRows.get(row)) {
        if (bits.nextBoolean()) {
          Fr.setOne(w, v);
        } // else w_v stays 0
        continue;
      }
      evaluate(a, row, w, s, 0);
      evaluate(b, row, w, s, 1);
      Fr.mul(s, 0, s, 1, w, v);
    }
    return new Witness(params, w);
  }

  /** A 64-bit digest of variables 0..count-1 (the one, the inputs and the seeds): the free bits' seed. */
  private static long bitSeed(long[] w, int count) {
    long h = 0x243F6A8885A308D3L;
    for (int k = 0; k < Fr.LIMBS * count; k++) {
      h = Long.rotateLeft((h ^ w[k]) * 0x9E3779B97F4A7C15L, 29);
    }
    return h;
  }

  /** How many regular rows define a full-width variable (all of them for a field witness). */
  public int fullWidthRows() {
    return fullWidthRows;
  }

  /** How many rows define a free bit (v·v = v), drawn by the witness from its inputs and seeds. */
  public int freeBitRows() {
    return freeBitRows.cardinality();
  }

  private static void evaluate(SparseMatrix m, int row, long[] w, long[] s, int oi) {
    long[] limbs = m.coefficientLimbs();
    Fr.setZero(s, oi);
    for (int k = m.rowStart(row), end = m.rowStart(row + 1); k < end; k++) {
      Fr.mul(limbs, k, w, m.column(k), s, 2);
      Fr.add(s, oi, s, 2, s, oi);
    }
  }

  /** Whether the witness belongs to this circuit, has w_0 = 1 and satisfies every row. */
  public boolean isSatisfied(Witness witness) {
    return firstUnsatisfiedRow(witness) == -1;
  }

  /**
   * The first row the witness violates, -1 if none; throws IllegalArgumentException for a witness of another
   * circuit, and reports row 0 when w_0 ≠ 1 (the constant one is part of every row's meaning).
   */
  public int firstUnsatisfiedRow(Witness witness) {
    requireOwn(witness);
    long[] w = witness.values();
    if (!Fr.isOne(w, 0)) {
      return 0;
    }
    long[] s = Fr.newVector(4);
    for (int row = 0; row < size(); row++) {
      evaluate(a, row, w, s, 0);
      evaluate(b, row, w, s, 1);
      Fr.mul(s, 0, s, 1, s, 3);
      evaluate(c, row, w, s, 0);
      if (!Fr.equals(s, 0, s, 3)) {
        return row;
      }
    }
    return -1;
  }

  /** Throws IllegalArgumentException unless the witness was made for a circuit with these parameters. */
  void requireOwn(Witness witness) {
    Objects.requireNonNull(witness, "witness");
    if (!witness.params().equals(params) || witness.size() != numVariables()) {
      throw new IllegalArgumentException("witness is for circuit (" + witness.params() + "), not (" + params + ")");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Circuit && ((Circuit) o).params.equals(params);
  }

  @Override
  public int hashCode() {
    return params.hashCode();
  }

  @Override
  public String toString() {
    return "Circuit(" + params + ", N=" + size() + ", m=" + numVariables() + ")";
  }
}
