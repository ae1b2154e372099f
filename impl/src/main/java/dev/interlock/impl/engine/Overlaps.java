package dev.interlock.impl.engine;

import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Interval;
import dev.interlock.model.design.SpawnTree;
import dev.interlock.model.step.Step;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How often a run actually did what {@code check --overlap A B} asks of the model: a thread inside interval A
 * while a thread of another worker was inside interval B (a role thread and the tasks its jobs spawn are one
 * worker); with {@code sameWorker}, any other thread counts, as for {@code --overlap-same-worker}.
 *
 * <p>Intervals are the cpu and kernel steps, named as in the design ({@code h2d} for {@code kernel h2d uses staged});
 * a thread is inside one from its begin event to its end event, failed or not (or to the end of the log); a failed
 * begin enters nothing. The count is the number
 * of begin events of A (or B) at which another thread was inside B (or A): each time the overlap started, as the
 * model's state would first show it. A log that ends inside both, like a model's overlap witness, counts.
 */
public final class Overlaps {
  private Overlaps() {}

  /** The number of times a thread entered A or B while a thread of another worker was inside the other (see the class). */
  public static int count(List<Event> events, String a, String b) {
    return count(events, a, b, false);
  }

  /** As {@link #count(List, String, String)}; with {@code sameWorker} a thread of the same worker counts too. */
  public static int count(List<Event> events, String a, String b, boolean sameWorker) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    Map<String, String> inside = new HashMap<>();
    int n = 0;
    for (Event e : events) {
      if (e.phase().isEmpty() || Interval.nameOf(e.step()).isEmpty()) {
        continue;
      }
      String name = intervalName(e.step());
      if (e.phase().get() == Phase.END) { // a failed end leaves the interval too
        inside.remove(e.thread(), name);
        continue;
      }
      if (e.failure().isPresent()) { // a failed begin never entered it
        continue;
      }
      if (name.equals(a) || name.equals(b)) {
        String other = name.equals(a) ? b : a;
        for (Map.Entry<String, String> t : inside.entrySet()) {
          if (!t.getKey().equals(e.thread())
              && (sameWorker || !SpawnTree.roleThreadOf(t.getKey()).equals(SpawnTree.roleThreadOf(e.thread())))
              && t.getValue().equals(other)) {
            n++;
            break;
          }
        }
      }
      inside.put(e.thread(), name);
    }
    return n;
  }

  /** The interval name of a step: the name of a cpu or kernel step, else empty. */
  static String intervalName(Step step) {
    return Interval.nameOf(step).orElse("");
  }
}
