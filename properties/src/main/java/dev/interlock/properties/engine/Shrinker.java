package dev.interlock.properties.engine;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Shrinks a failing choice sequence to a shortlex-smaller one that still fails and that no pass
 * can improve: deleting spans, zeroing spans, lowering single values, swapping adjacent values,
 * moving value from one choice to a later one and, when those are stuck, lowering a value by one
 * while either maximizing a later one (a borrow, as between the chunks of a long) or deleting a span
 * after it (a count and one of the elements it counts); repeated until nothing improves or the
 * attempt budget is spent, so it always terminates.
 */
public final class Shrinker {
  /** The default bound on candidates run per shrink. */
  public static final int DEFAULT_MAX_ATTEMPTS = 10_000;

  private static final int[] SPAN_SIZES = {8, 4, 3, 2, 1};
  private static final int REDISTRIBUTE_WINDOW = 8;
  private static final int FIXED_POINT_WINDOW = 8;

  private final int maxAttempts;

  /** A shrinker with the default budget. */
  public Shrinker() {
    this(DEFAULT_MAX_ATTEMPTS);
  }

  /** A shrinker that runs at most {@code maxAttempts} candidates per shrink. */
  public Shrinker(int maxAttempts) {
    if (maxAttempts < 0) {
      throw new IllegalArgumentException("maxAttempts must be >= 0, got " + maxAttempts);
    }
    this.maxAttempts = maxAttempts;
  }

  /** The bound on candidates run per shrink. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** Runs a candidate and, when it still fails, returns the choices it actually consumed. */
  @FunctionalInterface
  public interface Replayer {
    /** The consumed (normalized) choices if {@code candidate} still fails, else empty. */
    Optional<int[]> replay(int[] candidate);
  }

  /** Shrinks {@code failing} where candidates are taken as they are (no normalization). */
  public ShrinkResult shrink(int[] failing, Predicate<int[]> stillFails) {
    Objects.requireNonNull(stillFails, "stillFails");
    return shrinkReplaying(
        failing, c -> stillFails.test(c.clone()) ? Optional.of(c) : Optional.empty());
  }

  /** Shrinks {@code failing}, normalizing each failing candidate to what the replay consumed. */
  public ShrinkResult shrinkReplaying(int[] failing, Replayer replayer) {
    Objects.requireNonNull(failing, "failing");
    Objects.requireNonNull(replayer, "replayer");
    Run run = new Run(checked(failing.clone()), replayer);
    run.loop();
    return new ShrinkResult(run.best, run.steps, run.attempts);
  }

  private static int[] checked(int[] choices) {
    for (int v : choices) {
      if (v < 0) {
        throw new IllegalArgumentException("choices are >= 0, got " + Arrays.toString(choices));
      }
    }
    return choices;
  }

  /** The state of one shrink: the best sequence so far and the budget spent. */
  private final class Run {
    private final Replayer replayer;
    private final Set<Long> tried = new HashSet<>();
    private int[] best;
    private int steps;
    private int attempts;

    Run(int[] failing, Replayer replayer) {
      this.best = failing;
      this.replayer = replayer;
    }

    void loop() {
      boolean improved = true;
      while (improved && !exhausted()) {
        improved = deleteSpans();
        improved |= zeroSpans();
        improved |= lowerValues();
        improved |= swapAdjacent();
        improved |= redistribute();
        if (!improved) { // costly passes, so only at a fixed point of the others
          improved = borrow() || lowerAndDelete();
        }
      }
    }

    /** Deletes spans of each size, from the end backwards, retrying a position after success. */
    private boolean deleteSpans() {
      boolean improved = false;
      for (int k : SPAN_SIZES) {
        for (int i = best.length - k; i >= 0 && !exhausted(); ) {
          int[] candidate = new int[best.length - k];
          System.arraycopy(best, 0, candidate, 0, i);
          System.arraycopy(best, i + k, candidate, i, best.length - i - k);
          if (consider(candidate)) {
            improved = true;
            i = Math.min(i, best.length - k);
          } else {
            i--;
          }
        }
      }
      return improved;
    }

    /** Sets spans of each size to zero, from the end backwards. */
    private boolean zeroSpans() {
      boolean improved = false;
      for (int k : SPAN_SIZES) {
        for (int i = best.length - k; i >= 0 && !exhausted(); i = Math.min(i - 1, best.length - k)) {
          if (Arrays.stream(best, i, i + k).anyMatch(v -> v != 0)) {
            int[] candidate = best.clone();
            Arrays.fill(candidate, i, i + k, 0);
            improved |= consider(candidate);
          }
        }
      }
      return improved;
    }

    /** Lowers each value: to 0, else by binary search for the smallest value that still fails. */
    private boolean lowerValues() {
      boolean improved = false;
      for (int i = 0; i < best.length && !exhausted(); i++) {
        int high = best[i]; // fails
        if (high == 0) {
          continue;
        }
        if (consider(with(i, 0))) {
          improved = true;
          continue;
        }
        int low = 0; // did not fail
        while (high - low > 1 && !exhausted()) {
          int mid = low + (high - low) / 2;
          if (consider(with(i, mid))) {
            improved = true;
            if (i >= best.length || best[i] != mid) {
              break; // the sequence changed shape; the next pass starts afresh
            }
            high = mid;
          } else {
            low = mid;
          }
        }
      }
      return improved;
    }

    /** Swaps adjacent out-of-order values, which makes the sequence lexicographically smaller. */
    private boolean swapAdjacent() {
      boolean improved = false;
      for (int i = 0; i + 1 < best.length && !exhausted(); i++) {
        if (best[i] > best[i + 1]) {
          int[] candidate = best.clone();
          candidate[i] = best[i + 1];
          candidate[i + 1] = best[i];
          improved |= consider(candidate);
        }
      }
      return improved;
    }

    /** Moves all, else half, of a value to a nearby later one (e.g. keeps a sum while simplifying). */
    private boolean redistribute() {
      boolean improved = false;
      for (int i = 0; i < best.length && !exhausted(); i++) {
        for (int j = i + 1; j < best.length && j <= i + REDISTRIBUTE_WINDOW && !exhausted(); j++) {
          int v = best[i];
          if (v == 0) {
            break;
          }
          if (consider(moved(i, j, v)) || (v > 1 && consider(moved(i, j, v / 2)))) {
            improved = true;
          }
        }
      }
      return improved;
    }

    /** Lowers a value by one and raises a value shortly after it to the most (clamped on replay). */
    private boolean borrow() {
      for (int i = 0; i < best.length && !exhausted(); i++) {
        int last = Math.min(best.length - 1, i + FIXED_POINT_WINDOW);
        for (int j = i + 1; j <= last && best[i] > 0 && !exhausted(); j++) {
          int[] candidate = with(i, best[i] - 1);
          candidate[j] = Integer.MAX_VALUE;
          if (consider(candidate)) {
            return true;
          }
        }
      }
      return false;
    }

    /** Lowers a value by one and deletes a span starting shortly after it. */
    private boolean lowerAndDelete() {
      for (int i = 0; i < best.length && !exhausted(); i++) {
        for (int k : SPAN_SIZES) {
          int last = Math.min(best.length - k, i + FIXED_POINT_WINDOW);
          for (int j = i + 1; j <= last && best[i] > 0 && !exhausted(); j++) {
            int[] candidate = new int[best.length - k];
            System.arraycopy(best, 0, candidate, 0, j);
            System.arraycopy(best, j + k, candidate, j, best.length - j - k);
            candidate[i]--;
            if (consider(candidate)) {
              return true;
            }
          }
        }
      }
      return false;
    }

    private int[] with(int i, int value) {
      int[] candidate = best.clone();
      candidate[i] = value;
      return candidate;
    }

    private int[] moved(int from, int to, int amount) {
      int[] candidate = best.clone();
      candidate[from] -= amount;
      candidate[to] = (int) Math.min(Integer.MAX_VALUE, (long) candidate[to] + amount);
      return candidate;
    }

    /** Runs a simpler, untried candidate and keeps its normalized form if it still fails. */
    private boolean consider(int[] candidate) {
      if (exhausted() || !Shortlex.less(candidate, best) || !tried.add(fingerprint(candidate))) {
        return false;
      }
      attempts++;
      Optional<int[]> consumed = replayer.replay(candidate.clone());
      if (consumed.isEmpty() || !Shortlex.less(consumed.get(), best)) {
        return false;
      }
      best = checked(consumed.get().clone());
      steps++;
      return true;
    }

    private boolean exhausted() {
      return attempts >= maxAttempts;
    }
  }

  /** A 64-bit content hash; a collision only skips a candidate, so exactness is not needed. */
  private static long fingerprint(int[] choices) {
    long h = choices.length;
    for (int v : choices) {
      h = (h ^ v) * 0x0100_0000_01B3L;
      h ^= h >>> 29;
    }
    return h;
  }
}
