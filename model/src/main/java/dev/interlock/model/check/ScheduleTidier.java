package dev.interlock.model.check;

import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import java.util.function.Predicate;

/**
 * Reorders a schedule so that it switches threads as rarely as possible and still ends the same way.
 *
 * <p>Breadth-first search finds a shortest trace, but which of the many equally short ones depends
 * on discovery order, which interleaves threads needlessly. People read a trace as a story, so a
 * counterexample should let one thread run on as long as the bug allows. The tidier moves blocks
 * of transitions to other positions while the number of thread switches drops and the schedule stays
 * executable with the same ending; the length never changes.
 */
final class ScheduleTidier {
  /** Bound on candidate schedules tried, so tidying long traces stays cheap. */
  private static final int MAX_CANDIDATES = 100_000;

  private final Model model;
  private final ViolationKind failing;
  private final Predicate<long[]> end;

  /**
   * @param failing the violation the last transition must fail with, or null when it must move
   * @param end     what the final state must satisfy when {@code failing} is null
   */
  ScheduleTidier(Model model, ViolationKind failing, Predicate<long[]> end) {
    this.model = model;
    this.failing = failing;
    this.end = end;
  }

  /** A schedule with at most as many thread switches as {@code schedule}, of the same length and ending. */
  int[] tidy(int[] schedule) {
    int[] best = schedule.clone();
    int movable = failing != null ? best.length - 1 : best.length;
    int budget = MAX_CANDIDATES;
    boolean improved = true;
    while (improved && budget > 0) {
      improved = false;
      int switches = switches(best);
      search:
      for (int len = 1; len < movable; len++) {
        for (int k = 0; k + len <= movable; k++) {
          for (int p = 0; p + len <= movable; p++) {
            if (p == k) {
              continue;
            }
            if (budget-- <= 0) {
              break search;
            }
            int[] c = moved(best, k, len, p);
            if (switches(c) < switches && valid(c)) {
              best = c;
              improved = true;
              break search;
            }
          }
        }
      }
    }
    return best;
  }

  /** The schedule with the block {@code [from, from + len)} taken out and put back to start at {@code to}. */
  private static int[] moved(int[] a, int from, int len, int to) {
    int[] rest = new int[a.length - len];
    System.arraycopy(a, 0, rest, 0, from);
    System.arraycopy(a, from + len, rest, from, a.length - from - len);
    int[] c = new int[a.length];
    System.arraycopy(rest, 0, c, 0, to);
    System.arraycopy(a, from, c, to, len);
    System.arraycopy(rest, to, c, to + len, rest.length - to);
    return c;
  }

  static int switches(int[] schedule) {
    int n = 0;
    for (int i = 1; i < schedule.length; i++) {
      if (schedule[i] != schedule[i - 1]) {
        n++;
      }
    }
    return n;
  }

  /** Whether the schedule runs on the model and ends as required. */
  boolean valid(int[] schedule) {
    long[] s = model.initial();
    long[] out = new long[s.length];
    for (int k = 0; k < schedule.length; k++) {
      int code = model.step(s, schedule[k], out);
      if (k == schedule.length - 1 && failing != null) {
        return Model.violation(code) == failing;
      }
      if (code != Model.MOVED) {
        return false;
      }
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    return failing == null && end.test(s);
  }
}
