package dev.interlock.impl.engine;

import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Kernel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The time a run spent with at least one kernel step running, from its events: the union of the kernel intervals.
 *
 * <p>A thread is inside a kernel from its begin event to its end event (failed or not). A failed begin enters
 * nothing. A begin whose thread records something else before any end was abandoned (its job failed on another
 * thread, or the run was aborted): its end is unknown, so it is left out rather than stretched to the thread's next
 * step. Why per thread: a single count of begins and ends, which this replaced, never came back to zero after one
 * abandoned kernel, so a run with faults read 0% busy.
 */
public final class KernelBusy {
  private KernelBusy() {}

  /** Nanoseconds in which at least one kernel step was running. */
  public static long nanos(List<Event> events) {
    Map<String, Long> open = new HashMap<>();
    List<long[]> intervals = new ArrayList<>();
    for (Event e : events) {
      Long begun = open.remove(e.thread());
      boolean kernel = e.step() instanceof Kernel && e.phase().isPresent();
      if (kernel && e.phase().get() == Phase.END) {
        if (begun != null) {
          intervals.add(new long[] {begun, e.nanos()});
        }
      } else if (kernel && e.phase().get() == Phase.BEGIN && e.failure().isEmpty()) {
        open.put(e.thread(), e.nanos());
      }
    }
    intervals.sort(Comparator.comparingLong(i -> i[0]));
    long busy = 0;
    long from = Long.MIN_VALUE;
    long to = Long.MIN_VALUE;
    for (long[] i : intervals) {
      if (i[0] > to) {
        busy += to - from;
        from = i[0];
        to = i[1];
      } else {
        to = Math.max(to, i[1]);
      }
    }
    return busy + (to - from);
  }

  /** {@link #nanos} as a fraction of {@code seconds} of wall, at most 1; 0 for an empty run. */
  public static double fraction(List<Event> events, double seconds) {
    if (events.isEmpty() || seconds <= 0) {
      return 0;
    }
    return Math.min(1.0, nanos(events) / (seconds * 1e9));
  }
}
