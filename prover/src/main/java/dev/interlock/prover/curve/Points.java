package dev.interlock.prover.curve;

/** Helpers shared by G1 and G2. */
final class Points {
  private Points() {}

  /** A clear message for blst's refusal to decode a compressed point. */
  static String describeDecodeFailure(String group, RuntimeException e) {
    String m = String.valueOf(e.getMessage());
    if (m.contains("not on curve")) {
      return group + " point: not on the curve (x has no matching y): " + m;
    }
    if (m.contains("bad point encoding")) {
      return group + " point: bad encoding (x is not a field element below p): " + m;
    }
    return group + " point: cannot decode: " + m;
  }
}
