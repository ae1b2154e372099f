package dev.interlock.properties.engine;

import java.util.Objects;

/** How to run a property: the run seed, the number of valid tries, the shrink attempt budget. */
public record Config(long seed, int tries, int maxShrinks) {
  /** The system property that overrides every default seed, to reproduce a failure. */
  public static final String SEED_PROPERTY = "interlock.seed";

  /** The default number of valid tries. */
  public static final int DEFAULT_TRIES = 100;

  /** The default bound on candidates run while shrinking. */
  public static final int DEFAULT_MAX_SHRINKS = Shrinker.DEFAULT_MAX_ATTEMPTS;

  /** Validates the counts. */
  public Config {
    if (tries < 1) {
      throw new IllegalArgumentException("tries must be >= 1, got " + tries);
    }
    if (maxShrinks < 0) {
      throw new IllegalArgumentException("maxShrinks must be >= 0, got " + maxShrinks);
    }
  }

  /**
   * Default tries and budget; the seed is {@code -Dinterlock.seed} when set and non-blank (printed,
   * since it overrides), else derived from {@code name}, so runs are deterministic by default.
   */
  public static Config defaults(String name) {
    Objects.requireNonNull(name, "name");
    String property = System.getProperty(SEED_PROPERTY);
    if (property == null || property.isBlank()) {
      return ofSeed(Seeds.ofName(name));
    }
    long seed;
    try {
      seed = Long.parseLong(property.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "-D" + SEED_PROPERTY + " must be a long, got '" + property + "'", e);
    }
    System.out.println("[interlock] " + name + ": seed " + seed + " from -D" + SEED_PROPERTY);
    return ofSeed(seed);
  }

  /** Default tries and budget with the given seed. */
  public static Config ofSeed(long seed) {
    return new Config(seed, DEFAULT_TRIES, DEFAULT_MAX_SHRINKS);
  }

  /** This config with another seed. */
  public Config withSeed(long newSeed) {
    return new Config(newSeed, tries, maxShrinks);
  }

  /** This config with another number of tries. */
  public Config withTries(int newTries) {
    return new Config(seed, newTries, maxShrinks);
  }

  /** This config with another shrink budget (0 disables shrinking). */
  public Config withMaxShrinks(int newMaxShrinks) {
    return new Config(seed, tries, newMaxShrinks);
  }
}
