package dev.interlock.model.param;

import dev.interlock.model.state.ViolationKind;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** What the counter abstraction says about every number of threads of the {@code any} roles. */
public sealed interface ParamAnswer permits ParamAnswer.Unknown, ParamAnswer.Decided {

  /** The design (or its size) is outside the method: nothing is claimed for every number. */
  record Unknown(String reason) implements ParamAnswer {
    public Unknown {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /**
   * Each upward-closed kind decided: empty when no number of threads reaches it, else the fewest threads per role
   * (smallest total, then first in role order, among the component-wise minimal vectors) of the relaxed system, whose
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
      long basisElements, long iterations, double seconds) implements ParamAnswer {
    public Decided {
      minimal = Collections.unmodifiableMap(new EnumMap<>(minimal));
      if (!minimal.keySet().equals(Parameterized.UPWARD)) {
        throw new IllegalArgumentException("every upward-closed kind is decided, got " + minimal.keySet());
      }
    }
  }
}
