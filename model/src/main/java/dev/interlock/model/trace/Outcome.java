package dev.interlock.model.trace;

import dev.interlock.model.state.Violation;
import dev.interlock.model.step.Names;

/**
 * How a trace ends: a violation, an overlap of two intervals, every thread finished, or stopped short (the trace is
 * only a prefix of a behaviour).
 */
public sealed interface Outcome permits Outcome.Violated, Outcome.Overlapped, Outcome.Completed, Outcome.Stopped {

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

  /**
   * The trace is a prefix of a behaviour that did not finish in it: a captured run the model followed until the run
   * diverged from the design, or until the capture ended. Replay confirms its transitions and claims nothing about the
   * state it stops in.
   *
   * @param reason why it stops, one line (in a trace file, the rest of the {@code outcome STOPPED} line)
   */
  record Stopped(String reason) implements Outcome {
    public Stopped {
      if (reason == null || reason.isBlank() || !reason.equals(reason.strip()) || reason.contains("\n") || reason.contains("\r")) {
        throw new IllegalArgumentException("a stopped trace's reason is one non-blank line without outer spaces, got '" + reason + "'");
      }
    }
  }
}
