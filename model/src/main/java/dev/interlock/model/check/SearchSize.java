package dev.interlock.model.check;

import dev.interlock.model.state.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * An estimate of how many states a breadth-first search will store, so that a search that will not fit can say so
 * early rather than stop at its limit after minutes.
 *
 * <p>The search's last level is about as deep as a full run is long (every transition is one step of one thread), so
 * the depth to come is the longest of a few random runs from the initial state (seeded: the same on every machine).
 * From a fifth of that depth on, the estimate is the states stored so far plus the latest levels' mean size for every
 * level still to come. Level sizes of interleaved workers grow towards the middle and shrink after it, so this tends
 * to be low early, and stays low where the states come late (docs/benchmarks-history.md measures it on the shipped
 * designs): it is a warning, never a reason to stop a search.
 */
public final class SearchSize {
  private static final int WALKS = 16;
  /** Steps past which a run is taken as unbounded (a role whose jobs never end): then there is no estimate. */
  private static final int LONGEST_RUN = 100_000;
  private static final long SEED = 0x5ea4c4L;

  private final int totalDepth;
  private final List<Long> stored = new ArrayList<>();

  private SearchSize(int totalDepth) {
    this.totalDepth = totalDepth;
  }

  /** An estimator for the search of {@code model}'s states. */
  public static SearchSize of(Model model) {
    return new SearchSize(longestRun(model));
  }

  /** The depth the search is expected to reach: the longest of a few random runs; -1 when a run has no end. */
  public int totalDepth() {
    return totalDepth;
  }

  /**
   * Records that the levels up to {@code depth} are stored, {@code states} in all, and returns the estimate of the
   * whole search's states, when there is one yet. Levels come in order, each once.
   */
  public OptionalLong level(int depth, long states) {
    while (stored.size() <= depth) {
      stored.add(states);
    }
    stored.set(depth, states);
    if (totalDepth < 0 || depth < Math.max(8, totalDepth / 5) || depth >= totalDepth) {
      return OptionalLong.empty();
    }
    int back = Math.max(1, depth / 20);
    double perLevel = (states - stored.get(depth - back)) / (double) back;
    return OptionalLong.of(states + (long) (perLevel * (totalDepth - depth)));
  }

  private static int longestRun(Model model) {
    SplittableRandom random = new SplittableRandom(SEED);
    long[] out = new long[model.width()];
    int[] moved = new int[model.moves()];
    int longest = 0;
    for (int w = 0; w < WALKS; w++) {
      long[] s = model.initial();
      int steps = 0;
      while (true) {
        int n = 0;
        for (int m = 0; m < model.moves(); m++) {
          if (model.step(s, m, out) == Model.MOVED) {
            moved[n++] = m;
          }
        }
        if (n == 0) {
          break;
        }
        model.step(s, moved[random.nextInt(n)], out);
        s = out.clone();
        if (++steps > LONGEST_RUN) {
          return -1;
        }
      }
      longest = Math.max(longest, steps);
    }
    return longest;
  }
}
