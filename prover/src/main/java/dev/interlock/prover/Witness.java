package dev.interlock.prover;

import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An immutable full assignment w_0..w_{m-1} of a circuit's variables (w_0 = 1, then the public inputs, then the
 * private variables), as a Montgomery Fr vector; made by {@link Circuit#witness}.
 */
public final class Witness {
  private final Circuit.Params params;
  private final long[] values;
  private volatile long[] canonical;

  Witness(Circuit.Params params, long[] values) {
    this.params = params;
    this.values = values;
  }

  /** The parameters of the circuit this witness was made for. */
  public Circuit.Params params() {
    return params;
  }

  /** m, the number of variables. */
  public int size() {
    return Fr.size(values);
  }

  /** Variable i. */
  public FrElement get(int i) {
    return FrElement.read(values, i);
  }

  /** The public inputs w_1..w_p (what a verifier is given). */
  public List<FrElement> publicInputs() {
    List<FrElement> out = new ArrayList<>(params.publicInputs());
    for (int i = 1; i <= params.publicInputs(); i++) {
      out.add(get(i));
    }
    return Collections.unmodifiableList(out);
  }

  /** A copy with variable i replaced (to build bad witnesses in tests). */
  public Witness with(int i, FrElement value) {
    long[] copy = values.clone();
    value.writeTo(copy, i);
    return new Witness(params, copy);
  }

  /** The Montgomery vector, shared: callers must not modify it. */
  long[] values() {
    return values;
  }

  /** The canonical (non-Montgomery) limbs of all variables, for MSMs; computed once and shared (read-only). */
  long[] canonicalLimbs() {
    long[] c = canonical;
    if (c == null) {
      c = Fr.toCanonical(values, 0, size());
      canonical = c;
    }
    return c;
  }

  @Override
  public String toString() {
    return "Witness(" + size() + " variables, circuit " + params + ")";
  }
}
