package dev.interlock.properties.engine;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The stream of choices handed to generators: random (seeded) or replayed from a prefix, and
 * always recorded, so that any generated value can be rebuilt and shrunk from its choices.
 *
 * <p>Not thread-safe; one source builds one value.
 */
public final class Source {
  /** The default bound on the number of choices one value may take. */
  public static final int DEFAULT_MAX_CHOICES = 100_000;

  private final SplittableRandom random;
  private final int[] prefix;
  private final int maxChoices;
  private int[] recorded = new int[16];
  private int size;

  private Source(SplittableRandom random, int[] prefix, int maxChoices) {
    if (maxChoices < 0) {
      throw new IllegalArgumentException("maxChoices must be >= 0, got " + maxChoices);
    }
    this.random = random;
    this.prefix = prefix;
    this.maxChoices = maxChoices;
  }

  /** A source drawing uniformly from a {@link SplittableRandom} seeded with {@code seed}. */
  public static Source random(long seed) {
    return random(seed, DEFAULT_MAX_CHOICES);
  }

  /** A random source that throws {@link Overrun} after {@code maxChoices} choices. */
  public static Source random(long seed, int maxChoices) {
    return new Source(new SplittableRandom(seed), null, maxChoices);
  }

  /** A source replaying {@code prefix} (clamped to each bound), then answering 0 forever. */
  public static Source replay(int[] prefix) {
    return replay(prefix, DEFAULT_MAX_CHOICES);
  }

  /** A replaying source that throws {@link Overrun} after {@code maxChoices} choices. */
  public static Source replay(int[] prefix, int maxChoices) {
    Objects.requireNonNull(prefix, "prefix");
    for (int v : prefix) {
      if (v < 0) {
        throw new IllegalArgumentException("choices are >= 0, got " + Arrays.toString(prefix));
      }
    }
    return new Source(null, prefix.clone(), maxChoices);
  }

  /** The next choice, in {@code [0, maxInclusive]}; 0 is the simplest. */
  public int choose(int maxInclusive) {
    if (maxInclusive < 0) {
      throw new IllegalArgumentException("maxInclusive must be >= 0, got " + maxInclusive);
    }
    if (size >= maxChoices) {
      throw new Overrun(maxChoices);
    }
    int value = random != null ? draw(maxInclusive) : replayed(maxInclusive);
    record(value);
    return value;
  }

  /** True with probability {@code numerator/denominator}; the simplest choice (0) gives false. */
  public boolean chance(int numerator, int denominator) {
    if (denominator < 1 || numerator < 0 || numerator > denominator) {
      throw new IllegalArgumentException(
          "need 0 <= numerator <= denominator, denominator >= 1; got " + numerator + "/" + denominator);
    }
    if (numerator == 0 || numerator == denominator) {
      return numerator == denominator;
    }
    return choose(denominator - 1) >= denominator - numerator;
  }

  /** The choices made so far (replayed values after clamping), as a fresh array. */
  public int[] recorded() {
    return Arrays.copyOf(recorded, size);
  }

  /** The number of choices made so far. */
  public int size() {
    return size;
  }

  /** Whether this source replays a prefix rather than drawing at random. */
  public boolean isReplay() {
    return random == null;
  }

  private int draw(int maxInclusive) {
    return maxInclusive == Integer.MAX_VALUE
        ? random.nextInt() >>> 1
        : random.nextInt(maxInclusive + 1);
  }

  private int replayed(int maxInclusive) {
    return size < prefix.length ? Math.min(prefix[size], maxInclusive) : 0;
  }

  private void record(int value) {
    if (size == recorded.length) {
      recorded = Arrays.copyOf(recorded, Math.min(maxChoices, 2 * recorded.length + 1));
    }
    recorded[size++] = value;
  }
}
