package dev.interlock.gpu.cuda;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Per-thread resources (a CUDA stream and its pinned staging) handed on from a thread that has ended to the next thread
 * that needs one, so that a long-lived device used by ever new threads keeps as many lanes as threads ran at once.
 *
 * <p>An ended thread's lane is taken over as it stands: work it left enqueued stays ordered before the new owner's,
 * which is what a stream promises anyway. A lane is only ever used by its owner, so the lane object itself needs no
 * locking; this class's own tables are guarded by its monitor.
 *
 * @param <L> what a lane holds
 */
final class ThreadLanes<L> {
  private final Supplier<L> make;
  private final ThreadLocal<L> mine = new ThreadLocal<>();
  private final Map<Thread, L> owned = new HashMap<>();
  private final Deque<L> free = new ArrayDeque<>();
  private final List<L> all = new ArrayList<>();
  private long threadsServed;

  /** Lanes made by {@code make} when no ended thread's lane is free. */
  ThreadLanes(Supplier<L> make) {
    this.make = make;
  }

  /** The calling thread's lane: its own, else an ended thread's, else a new one. */
  L lane() {
    L l = mine.get();
    if (l == null) {
      l = take();
      mine.set(l);
    }
    return l;
  }

  private synchronized L take() {
    for (Iterator<Map.Entry<Thread, L>> it = owned.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Thread, L> e = it.next();
      if (!e.getKey().isAlive()) {
        free.push(e.getValue());
        it.remove();
      }
    }
    L l = free.poll();
    if (l == null) {
      l = make.get();
      all.add(l);
    }
    owned.put(Thread.currentThread(), l);
    threadsServed++;
    return l;
  }

  /** Every lane made so far (at most as many as threads that held one at once). */
  synchronized List<L> all() {
    return List.copyOf(all);
  }

  /** How many threads have been given a lane. */
  synchronized long threadsServed() {
    return threadsServed;
  }

  /** Hands every lane to {@code release} and forgets them: the device is closing, and no thread uses a lane after. */
  synchronized void close(Consumer<L> release) {
    List<L> lanes = List.copyOf(all);
    all.clear();
    owned.clear();
    free.clear();
    lanes.forEach(release);
  }
}
