package dev.interlock.prover;

import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable sparse R1CS matrix (A, B or C) in compressed-row form: row i holds terms {@code [rowStart(i),
 * rowStart(i+1))}, term k being (column {@link #column(int)}, coefficient {@link #coefficient(int)}), the coefficient
 * stored as Fr Montgomery limbs at {@code coefficients[4k, 4k+4)}.
 */
public final class SparseMatrix {
  private final int columns;
  private final int[] rowStart;
  private final int[] cols;
  private final long[] coeffs;

  SparseMatrix(int columns, int[] rowStart, int[] cols, long[] coeffs) {
    this.columns = columns;
    this.rowStart = rowStart;
    this.cols = cols;
    this.coeffs = coeffs;
    if (coeffs.length != Fr.LIMBS * cols.length || rowStart[rowStart.length - 1] != cols.length) {
      throw new IllegalArgumentException("inconsistent sparse matrix arrays");
    }
  }

  /** Number of rows (constraints). */
  public int rows() {
    return rowStart.length - 1;
  }

  /** Number of columns (variables). */
  public int columns() {
    return columns;
  }

  /** Total number of non-zero terms. */
  public int nonZeros() {
    return cols.length;
  }

  /** Index of the first term of row i; {@code rowStart(rows())} is {@link #nonZeros()}. */
  public int rowStart(int i) {
    return rowStart[i];
  }

  /** Number of terms in row i. */
  public int rowLength(int i) {
    return rowStart[i + 1] - rowStart[i];
  }

  /** The column (variable index) of term k. */
  public int column(int k) {
    return cols[k];
  }

  /** The coefficient of term k. */
  public FrElement coefficient(int k) {
    return FrElement.read(coeffs, k);
  }

  /**
   * out[oi] = Σ_k coefficient(k)·w[column(k)] over the terms of row i (w a Montgomery vector of all variables);
   * scratch is a caller-owned vector of at least one element (so hot loops do not allocate), out must not be it.
   */
  public void evaluateRow(int i, long[] w, long[] out, int oi, long[] scratch) {
    Fr.setZero(out, oi);
    for (int k = rowStart[i], end = rowStart[i + 1]; k < end; k++) {
      Fr.mul(coeffs, k, w, cols[k], scratch, 0);
      Fr.add(out, oi, scratch, 0, out, oi);
    }
  }

  /** The vector (row_i · w)_i of all rows, a new Montgomery vector of {@link #rows()} elements. */
  public long[] multiply(long[] w) {
    Objects.requireNonNull(w, "w");
    if (Fr.size(w) != columns) {
      throw new IllegalArgumentException("vector of " + Fr.size(w) + " elements, matrix has " + columns + " columns");
    }
    long[] out = Fr.newVector(rows());
    long[] scratch = Fr.newVector(1);
    for (int i = 0; i < rows(); i++) {
      evaluateRow(i, w, out, i, scratch);
    }
    return out;
  }

  /** Counts of rows by their number of terms: {@code histogram()[t]} rows have t terms (length max+1). */
  public int[] rowLengthHistogram() {
    int max = 0;
    for (int i = 0; i < rows(); i++) {
      max = Math.max(max, rowLength(i));
    }
    int[] h = new int[max + 1];
    for (int i = 0; i < rows(); i++) {
      h[rowLength(i)]++;
    }
    return h;
  }

  /** Limb array of the coefficients, shared (package code reads it, never writes). */
  long[] coefficientLimbs() {
    return coeffs;
  }

  @Override
  public String toString() {
    return "SparseMatrix(" + rows() + "x" + columns + ", " + nonZeros() + " non-zeros, rows by length "
        + Arrays.toString(rowLengthHistogram()) + ")";
  }

  /** Accumulates rows in order. */
  static final class Builder {
    private final int columns;
    private final int[] rowStart;
    private int[] cols;
    private long[] coeffs;
    private int rows;
    private int terms;

    Builder(int rows, int columns, int expectedTerms) {
      this.columns = columns;
      this.rowStart = new int[rows + 1];
      this.cols = new int[Math.max(4, expectedTerms)];
      this.coeffs = new long[Fr.LIMBS * cols.length];
    }

    /** Appends a term to the current row: column j, coefficient element ci of vector c. */
    void term(int j, long[] c, int ci) {
      if (j < 0 || j >= columns) {
        throw new IllegalArgumentException("column " + j + " out of range [0, " + columns + ")");
      }
      if (terms == cols.length) {
        cols = Arrays.copyOf(cols, terms * 2);
        coeffs = Arrays.copyOf(coeffs, Fr.LIMBS * terms * 2);
      }
      cols[terms] = j;
      Fr.copy(c, ci, coeffs, terms);
      terms++;
    }

    /** Closes the current row. */
    void endRow() {
      rows++;
      rowStart[rows] = terms;
    }

    SparseMatrix build() {
      if (rows != rowStart.length - 1) {
        throw new IllegalStateException(rows + " rows built, " + (rowStart.length - 1) + " expected");
      }
      return new SparseMatrix(columns, rowStart, Arrays.copyOf(cols, terms), Arrays.copyOf(coeffs, Fr.LIMBS * terms));
    }
  }
}
