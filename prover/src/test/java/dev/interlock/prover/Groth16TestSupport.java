package dev.interlock.prover;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/** Seeded randomness and cached circuits/keys for the Groth16 tests. */
final class Groth16TestSupport {
  private static final Map<Circuit.Params, Keys> KEYS = new ConcurrentHashMap<>();

  private Groth16TestSupport() {}

  /** A generator seeded from -Dinterlock.seed when set, else from {@code defaultSeed}; prints the seed. */
  static SplittableRandom random(String test, long defaultSeed) {
    String property = System.getProperty("interlock.seed", "");
    long seed = property.isBlank() ? defaultSeed : Long.parseLong(property.strip());
    System.out.println("[interlock] " + test + " seed=" + seed + " (rerun with -Dinterlock.seed=" + seed + ")");
    return new SplittableRandom(seed);
  }

  /** Keys for a circuit, generated once per parameters within the test JVM (with a fixed setup seed). */
  static Keys keys(Circuit circuit) {
    return KEYS.computeIfAbsent(circuit.params(),
        p -> Setup.generate(circuit, new SplittableRandom(p.hashCode() * 31L + 7)));
  }
}
