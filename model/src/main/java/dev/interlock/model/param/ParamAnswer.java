package dev.interlock.model.param;

import dev.interlock.model.state.ViolationKind;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** What the parameterized analysis says about every number of threads of the {@code any} roles. */
public sealed interface ParamAnswer permits ParamAnswer.Unknown, ParamAnswer.Proved {

  /** The design (or its size) is outside both methods: nothing is claimed for every number. */
  record Unknown(String reason) implements ParamAnswer {
    public Unknown {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * An answer that decides every upward-closed kind: per kind in {@link Parameterized#UPWARD}, empty when no number of
   * threads reaches it, else the fewest threads per role that show it (each {@code any} role at least 1, the others
   * at their counts).
   */
  sealed interface Proved extends ParamAnswer permits Decided, Isolated {
    Map<ViolationKind, Optional<Map<String, Integer>>> minimal();
  }

  /**
   * Decided by the counter abstraction and backward coverability. The counts are those of the relaxed system, whose
   * allocations ignore the other workers. For OOM that is exact; for another kind it is exact too unless OOM shows
   * with as few threads: the relaxed run may then pass an allocation that would fail, and the count says that the kind
   * or OOM shows there (docs/parameterized.md). The smallest count over all kinds is always exact.
   *
   * @param minimal        per kind in {@link Parameterized#UPWARD}
   * @param localStates    local states of one worker, over all roles
   * @param sharedStates   shared states (mutexes held, permits available)
   * @param basisElements  elements of the final bases, summed over the kinds
   * @param iterations     basis elements expanded, summed over the kinds
   * @param seconds        wall time of the whole analysis
   */
  record Decided(Map<ViolationKind, Optional<Map<String, Integer>>> minimal, int localStates, int sharedStates,
      long basisElements, long iterations, double seconds) implements Proved {
    public Decided {
      minimal = everyKind(minimal);
    }
  }

  /**
   * Decided because one mutex isolates every worker's device memory from the others' ({@link MemoryIsolation}): each
   * upward-closed kind shows for some number of threads exactly when one worker alone reaches it, and then with one
   * thread of each {@code any} role. The counts are exact.
   *
   * @param mutex    the mutex that isolates the workers' memory
   * @param minimal  per kind in {@link Parameterized#UPWARD}
   * @param states   states one worker alone reaches, summed over the roles
   * @param seconds  wall time of the whole analysis, the mutexes tried before this one included
   */
  record Isolated(String mutex, Map<ViolationKind, Optional<Map<String, Integer>>> minimal, int states,
      double seconds) implements Proved {
    public Isolated {
      Objects.requireNonNull(mutex, "mutex");
      minimal = everyKind(minimal);
    }
  }

  private static Map<ViolationKind, Optional<Map<String, Integer>>> everyKind(
      Map<ViolationKind, Optional<Map<String, Integer>>> minimal) {
    Map<ViolationKind, Optional<Map<String, Integer>>> copy = Collections.unmodifiableMap(new EnumMap<>(minimal));
    if (!copy.keySet().equals(Parameterized.UPWARD)) {
      throw new IllegalArgumentException("every upward-closed kind is decided, got " + copy.keySet());
    }
    return copy;
  }
}
