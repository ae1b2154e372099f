package dev.interlock.impl.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * The threads of one run with their probes: the role threads, and the task threads that jobs spawn
 * while the run goes on. What the deadlock watchdog watches and the run's end waits for.
 */
final class RunThreads {
  /** A thread and its probe. */
  record Entry(Thread thread, RecordingProbe probe) {}

  private final List<Entry> entries = new ArrayList<>();

  synchronized void add(Thread thread, RecordingProbe probe) {
    entries.add(new Entry(thread, probe));
  }

  /** The threads so far, in the order they were added. */
  synchronized List<Entry> snapshot() {
    return List.copyOf(entries);
  }

  /** Waits until every thread, including any started meanwhile, has ended. */
  void joinAll() throws InterruptedException {
    int joined = 0;
    while (true) {
      List<Entry> now = snapshot();
      if (joined == now.size()) {
        return;
      }
      for (int i = joined; i < now.size(); i++) {
        now.get(i).thread().join();
      }
      joined = now.size();
    }
  }
}
