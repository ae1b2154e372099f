package dev.interlock.prover;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Objects;

/**
 * What values the private variables of a synthetic {@link Circuit} take; it decides the circuit's rows, so it is one
 * of the circuit's parameters.
 *
 * <ul>
 *   <li>{@link Kind#FIELD}: full-width field elements (products of earlier values), the default family;
 *       {@code fullScalarsPpm} is then {@value #PPM} (all of them).
 *   <li>{@link Kind#FILECOIN}: mostly 0 or 1, like the bit decompositions that make up Filecoin's circuits, with
 *       {@code fullScalarsPpm} parts per million of the constrained variables full-width. The MSMs over such a
 *       witness are split into batch additions and a small tail MSM (as supraseal does), which is what makes the
 *       CPU's b_g2_msm short beside the GPU's work.
 * </ul>
 */
public record WitnessShape(Kind kind, int fullScalarsPpm) {
  /** The two families. */
  public enum Kind {
    /** Full-width field elements. */
    FIELD,
    /** Mostly 0/1, a given share full-width. */
    FILECOIN
  }

  /** Parts per million: 100%. */
  public static final int PPM = 1_000_000;

  /**
   * The default share of full-width values in a Filecoin-like witness, 1%. An assumption, not a published figure: cuzk
   * spends ~0.5 s in b_g2_msm (the tail MSM of its 0/1 split, on the host's cores) per PoRep partition of ~130M
   * constraints, and a G2 MSM of 2^20 points takes ~3.3-3.6 s on 16 cores here, so its tail holds ~1.5·10^5 points
   * (about 0.1%) at this host's rate, and more if cuzk's host is faster: the default takes the upper end.
   */
  public static final int DEFAULT_FILECOIN_FULL_PPM = 10_000;

  /** Today's family: every private variable full-width. */
  public static final WitnessShape FIELD = new WitnessShape(Kind.FIELD, PPM);

  /** Validates: FIELD has all of them full-width; FILECOIN a share in [0, {@value #PPM}]. */
  public WitnessShape {
    Objects.requireNonNull(kind, "kind");
    if (kind == Kind.FIELD && fullScalarsPpm != PPM) {
      throw new IllegalArgumentException("a field witness is all full-width: fullScalarsPpm must be " + PPM + ", got "
          + fullScalarsPpm);
    }
    if (fullScalarsPpm < 0 || fullScalarsPpm > PPM) {
      throw new IllegalArgumentException("fullScalarsPpm must be in [0, " + PPM + "], got " + fullScalarsPpm);
    }
  }

  /** A Filecoin-like witness with this many parts per million of its constrained variables full-width. */
  public static WitnessShape filecoin(int fullScalarsPpm) {
    return new WitnessShape(Kind.FILECOIN, fullScalarsPpm);
  }

  /**
   * Parts per million of a percentage written as {@code 1%}, {@code 0.25%} or {@code 0.25} (percent), in [0, 100] with
   * at most 4 decimals; IllegalArgumentException saying so otherwise.
   */
  public static int ppmOfPercent(String text) {
    String t = text.strip();
    if (t.endsWith("%")) {
      t = t.substring(0, t.length() - 1).strip();
    }
    try {
      BigDecimal percent = new BigDecimal(t);
      if (percent.signum() >= 0 && percent.compareTo(BigDecimal.valueOf(100)) <= 0) {
        return percent.movePointRight(4).intValueExact();
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // reported below
    }
    throw new IllegalArgumentException("a share must be a percentage in [0, 100] with at most 4 decimals, as 1% or 0.25, got '"
        + text + "'");
  }

  /** The full-width share as a percentage, e.g. {@code 1%} or {@code 0.25%}. */
  public String fullPercent() {
    return BigDecimal.valueOf(fullScalarsPpm, 4).stripTrailingZeros().toPlainString() + "%";
  }

  /** {@code field}, or {@code filecoin (1% full-width)}. */
  @Override
  public String toString() {
    return kind == Kind.FIELD ? "field" : kind.name().toLowerCase(Locale.ROOT) + " (" + fullPercent() + " full-width)";
  }
}
