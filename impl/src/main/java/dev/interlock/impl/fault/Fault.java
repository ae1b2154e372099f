package dev.interlock.impl.fault;

import java.util.Objects;

/**
 * One injected fault: its kind, the step it hit, the thread, and what it did.
 *
 * <p>Why a record: a job's result carries it, so that a failure names the injected fault and its step.
 *
 * @param kind   the fault's kind
 * @param step   the name of the step it hit (buffer, kernel, interval, mutex, semaphore, or the step's keyword)
 * @param thread the thread it hit, {@code role#i} or a task thread
 * @param detail what happened, one line
 */
public record Fault(FaultKind kind, String step, String thread, String detail) {
  public Fault {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(step, "step");
    Objects.requireNonNull(thread, "thread");
    Objects.requireNonNull(detail, "detail");
    if (detail.isBlank() || detail.contains("\n")) {
      throw new IllegalArgumentException("a fault's detail is one non-blank line: '" + detail + "'");
    }
  }

  /** One line: {@code injected alloc fault at staged on gpu_worker#0: ...}. */
  public String describe() {
    return "injected " + kind.specName() + " fault at " + step + " on " + thread + ": " + detail;
  }
}
