package dev.interlock.model.state;

import dev.interlock.model.step.Step;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A readable snapshot of one thread in a model state, for messages, traces and tests.
 *
 * @param name      {@code role#i}
 * @param job       jobs completed so far
 * @param next      the step at the thread's position, empty once every job is done
 * @param inside    whether the thread is between begin and end of {@code next}
 * @param mutexes   mutexes it holds
 * @param permits   permits it holds, per semaphore (zero entries omitted)
 * @param buffers   its live buffers and their sizes in bytes, in the order the caller gave
 */
public record ThreadView(
    String name,
    int job,
    Optional<Step> next,
    boolean inside,
    List<String> mutexes,
    Map<String, Integer> permits,
    Map<String, Long> buffers) {
  public ThreadView {
    mutexes = List.copyOf(mutexes);
    // in the caller's order (the design's), unlike Map.copyOf's, which changes from one JVM run to the next and would
    // make messages and traces of the same seed differ
    permits = Collections.unmodifiableMap(new LinkedHashMap<>(permits));
    buffers = Collections.unmodifiableMap(new LinkedHashMap<>(buffers));
    if (inside && next.isEmpty()) {
      throw new IllegalArgumentException(name + ": a finished thread cannot be inside a step");
    }
  }

  /** Where the thread is, in words: "at 'lock m' (job 1)", "inside 'cpu x' (job 2)", "finished". */
  public String position() {
    return next.map(s -> (inside ? "inside '" : "at '") + s.text() + "' (job " + (job + 1) + ")").orElse("finished");
  }
}
