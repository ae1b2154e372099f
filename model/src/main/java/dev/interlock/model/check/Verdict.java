package dev.interlock.model.check;

import dev.interlock.model.state.Violation;
import java.util.Objects;
import java.util.OptionalLong;

/** The answer of a check. Only an exhaustive search says {@link Safe}. */
public sealed interface Verdict permits Verdict.Safe, Verdict.Unsafe, Verdict.LimitReached, Verdict.NoneFound,
    Verdict.Unknown {

  /** The name printed and used in JSON: SAFE, the violation kind, LIMIT, NONE_FOUND or UNKNOWN. */
  String label();

  /** Exit status of the CLI for this verdict: 0 SAFE or nothing found, 1 violation, 2 limit reached or unknown. */
  int exitStatus();

  /** No reachable state violates. */
  record Safe() implements Verdict {
    @Override
    public String label() {
      return "SAFE";
    }

    @Override
    public int exitStatus() {
      return 0;
    }
  }

  /** A reachable violation. */
  record Unsafe(Violation violation) implements Verdict {
    public Unsafe {
      Objects.requireNonNull(violation, "violation");
    }

    @Override
    public String label() {
      return violation.kind().name();
    }

    @Override
    public int exitStatus() {
      return 1;
    }
  }

  /** Which limit stopped a search: {@code --max-states}, {@code --max-memory} (the state store), or the Java heap. */
  enum Limit {
    MAX_STATES, MAX_MEMORY, HEAP;

    /** The name used in JSON: {@code max_states}, {@code max_memory} or {@code heap}. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * A limit stopped the search before it found a violation or finished: not a proof of safety.
   *
   * @param maxStates   the state limit
   * @param memoryLimit the memory limit in bytes, when that is the one that stopped the search
   * @param limit       the limit that stopped the search
   */
  record LimitReached(long maxStates, OptionalLong memoryLimit, Limit limit) implements Verdict {
    public LimitReached {
      Objects.requireNonNull(memoryLimit, "memoryLimit");
      Objects.requireNonNull(limit, "limit");
      if (memoryLimit.isPresent() != (limit == Limit.MAX_MEMORY)) {
        throw new IllegalArgumentException("a memory limit in bytes goes with MAX_MEMORY only, got " + limit);
      }
    }

    /** The state limit, or the memory limit when one is given, stopped the search. */
    public LimitReached(long maxStates, OptionalLong memoryLimit) {
      this(maxStates, memoryLimit, memoryLimit.isPresent() ? Limit.MAX_MEMORY : Limit.MAX_STATES);
    }

    /** The state limit stopped the search. */
    public LimitReached(long maxStates) {
      this(maxStates, OptionalLong.empty());
    }

    /** The Java heap ran low: the search stopped before an OutOfMemoryError could end the process. */
    public static LimitReached heap(long maxStates) {
      return new LimitReached(maxStates, OptionalLong.empty(), Limit.HEAP);
    }

    @Override
    public String label() {
      return "LIMIT";
    }

    @Override
    public int exitStatus() {
      return 2;
    }
  }

  /** Random schedules found nothing: not a proof of safety. */
  record NoneFound(int schedules) implements Verdict {
    @Override
    public String label() {
      return "NONE_FOUND";
    }

    @Override
    public int exitStatus() {
      return 0;
    }
  }

  /** A question the method cannot decide (for example a construct outside it): not a proof of safety. */
  record Unknown(String reason) implements Verdict {
    public Unknown {
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String label() {
      return "UNKNOWN";
    }

    @Override
    public int exitStatus() {
      return 2;
    }
  }
}
