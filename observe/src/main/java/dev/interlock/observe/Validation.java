package dev.interlock.observe;

import java.util.List;
import java.util.Objects;

/** The verdict of {@link Validator}: the run is a behaviour of the design, or where it stops being one. */
public sealed interface Validation {
  /** Exit status of {@code interlock validate}: 0 conforms, 1 diverges. */
  int exitStatus();

  /** One line for people. */
  String summary();

  /**
   * Every observed event the design mentions was a transition the model allowed.
   *
   * @param matched   observed events matched to design steps
   * @param threads   OS threads mapped onto design threads
   * @param oomLine   the capture line of the allocation that really ran out of memory, which the model agrees
   *                  fails there; 0 when the run did not run out of memory
   * @param failures  each allocation that ran out of memory and went on as the design's {@code on oom} says (handled, or
   *                  ignored, with the steps that ran without the buffer), as {@code CAPTURE:LINE: ...}
   */
  record Conforms(int matched, int threads, int oomLine, List<String> failures) implements Validation {
    public Conforms {
      if (matched < 0 || threads < 0 || oomLine < 0) {
        throw new IllegalArgumentException("negative count");
      }
      failures = List.copyOf(failures);
    }

    /** A conforming run with no failure that the design handles or ignores. */
    public Conforms(int matched, int threads, int oomLine) {
      this(matched, threads, oomLine, List.of());
    }

    public int exitStatus() {
      return 0;
    }

    public String summary() {
      return "CONFORMS: " + matched + " events on " + threads + " threads are transitions of the design"
          + (oomLine > 0 ? "; the run ran out of memory at line " + oomLine + ", where the design runs out of memory too" : "")
          + (failures.isEmpty() ? "" : "; " + failures.size() + " allocation" + (failures.size() == 1 ? "" : "s")
              + " ran out of memory where the design handles or ignores it");
    }
  }

  /**
   * The first observed event the design does not allow.
   *
   * @param line    its line in the capture
   * @param message what happened on both sides, with positions
   * @param matched events matched before it
   */
  record Diverges(int line, String message, int matched) implements Validation {
    public Diverges {
      Objects.requireNonNull(message, "message");
      if (line < 1) {
        throw new IllegalArgumentException("a divergence is at a line, got " + line);
      }
    }

    public int exitStatus() {
      return 1;
    }

    public String summary() {
      return "DIVERGES: " + message;
    }
  }
}
