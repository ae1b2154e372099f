package dev.interlock.view.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Spreads intervals over as few lanes as it takes for no two in a lane to overlap: why a semaphore's holds by several
 * threads at once, or kernels of one stream whose aligned times touch, still nest properly within every track.
 */
final class Lanes {
  private Lanes() {}

  /**
   * The lanes of {@code items}, first fit in order of start (then end): an item goes to the first lane whose last item
   * ended at or before it starts.
   */
  static <T> List<List<T>> of(List<T> items, ToLongFunction<T> start, ToLongFunction<T> end) {
    List<T> sorted = new ArrayList<>(items);
    sorted.sort(Comparator.comparingLong(start).thenComparingLong(end));
    List<List<T>> lanes = new ArrayList<>();
    List<Long> ends = new ArrayList<>();
    for (T item : sorted) {
      int lane = 0;
      while (lane < lanes.size() && ends.get(lane) > start.applyAsLong(item)) {
        lane++;
      }
      if (lane == lanes.size()) {
        lanes.add(new ArrayList<>());
        ends.add(Long.MIN_VALUE);
      }
      lanes.get(lane).add(item);
      ends.set(lane, end.applyAsLong(item));
    }
    return lanes;
  }

  /** The name of lane {@code lane} (from 0) of a track called {@code name}: the name itself, then "NAME #2", "NAME #3". */
  static String name(String name, int lane) {
    return lane == 0 ? name : name + " #" + (lane + 1);
  }
}
