package dev.interlock.prover.curve;

import java.util.List;
import java.util.stream.IntStream;
import supranational.blst.P2_Affine;

/**
 * Immutable MSM bases in G2, prepared once (e.g. per proving key): the affine points and their
 * negations, so that Pippenger uses mixed additions and signed digits need no negation on the fly.
 * Memory: about 2 x 230 bytes per base (jblst keeps each point in a long[] on the Java heap).
 */
public final class G2Bases {
  private final G2[] points;
  private final P2_Affine[] affine;
  private final P2_Affine[] negated;

  private G2Bases(G2[] points) {
    for (int i = 0; i < points.length; i++) {
      if (points[i] == null) {
        throw new NullPointerException("base " + i + " is null");
      }
    }
    this.points = points;
    this.affine = new P2_Affine[points.length];
    this.negated = new P2_Affine[points.length];
    IntStream range = IntStream.range(0, points.length);
    if (points.length >= Pippenger.PARALLEL_THRESHOLD) {
      range = range.parallel();
    }
    range.forEach(
        i -> {
          P2_Affine a = points[i].affine();
          affine[i] = a;
          // to_jacobian gives Z = 1, for which blst's to_affine needs no inversion
          negated[i] = a.to_jacobian().neg().to_affine();
        });
  }

  /** Bases from a list of points (the list is copied). */
  public static G2Bases of(List<G2> points) {
    return new G2Bases(points.toArray(new G2[0]));
  }

  /** Bases from points (the array is copied). */
  public static G2Bases of(G2... points) {
    return new G2Bases(points.clone());
  }

  /** Number of bases. */
  public int size() {
    return points.length;
  }

  /** Base i. */
  public G2 get(int i) {
    return points[i];
  }

  /** The bases as an unmodifiable list. */
  public List<G2> toList() {
    return List.of(points);
  }

  P2_Affine[] affine() {
    return affine;
  }

  P2_Affine[] negated() {
    return negated;
  }

  @Override
  public String toString() {
    return "G2Bases(" + points.length + (points.length == 0 ? ")" : ": " + points[0] + ", ...)");
  }
}
