package dev.interlock.model.trace;

import dev.interlock.model.state.Violation;
import dev.interlock.model.step.Names;

/** How a trace ends: a violation, an overlap of two intervals, or every thread finished. */
public sealed interface Outcome permits Outcome.Violated, Outcome.Overlapped, Outcome.Completed {

  /** The trace ends in a violation; for a failing step the last transition is that step. */
  record Violated(Violation violation) implements Outcome {}

  /**
   * The trace ends in a state where a thread is inside interval {@code a} and a thread of another worker (of any
   * thread but itself, with {@code sameWorker}) inside {@code b}.
   */
  record Overlapped(String a, String b, boolean sameWorker) implements Outcome {
    public Overlapped {
      Names.require("interval", a);
      Names.require("interval", b);
    }

    /** An overlap across different workers. */
    public Overlapped(String a, String b) {
      this(a, b, false);
    }
  }

  /** Every thread ran all its jobs. */
  record Completed() implements Outcome {}
}
