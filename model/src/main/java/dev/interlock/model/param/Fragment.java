package dev.interlock.model.param;

import dev.interlock.model.design.Design;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Whether a design lies in the monotone fragment the counter abstraction decides, and if not, why. */
public final class Fragment {
  private Fragment() {}

  /** Empty when every step of the design is monotone in the other workers' counts; else why not, one reason per construct. */
  public static Optional<String> outside(Design design) {
    Map<Class<?>, String> reasons = new LinkedHashMap<>();
    for (Step s : design.steps()) {
      if (s instanceof Sync) {
        reasons.putIfAbsent(Sync.class, "'" + s.text() + "' waits until no thread is inside a kernel: a zero test on"
            + " the other workers, which the counter abstraction cannot decide");
      } else if (s instanceof IfFree) {
        reasons.putIfAbsent(IfFree.class, "'" + s.text() + "' branches on free memory, which more workers only"
            + " lower: a downward-closed condition");
      } else if (s instanceof Alloc a && a.onOom() instanceof dev.interlock.model.step.OnOom.Handle) {
        reasons.putIfAbsent(dev.interlock.model.step.OnOom.class, "'" + s.text() + "' handles its failure (on oom): its"
            + " handler runs only when the other workers hold enough memory, and its success path only when they do not,"
            + " a downward-closed condition");
      } else if (s instanceof Alloc a && a.async()) {
        reasons.putIfAbsent(Alloc.class, "'" + s.text() + "' allocates from the memory pool, whose per-stream caches"
            + " make an allocation depend on other workers' streams");
      }
    }
    return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons.values()));
  }
}
