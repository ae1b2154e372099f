package dev.interlock.observe;

import dev.interlock.model.design.Design;
import dev.interlock.model.sim.DurationsFile;
import dev.interlock.model.step.Interval;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A captured run's measured intervals as a durations file ({@code capture --durations-out}): every NVTX range named as
 * one of the design's {@code cpu} or {@code kernel} steps, from its push to its pop on the thread that pushed it.
 *
 * <p>The ranges are read as validate reads them ({@link CaptureSteps}: a start/end range that ends on its own thread
 * as its innermost range is a push/pop pair). The kind is the design's step's. A capture has no CPU time, so cores are
 * not measured. Ranges of other names are listed, not timed; a range still open when the capture ends is left out.
 */
public final class CaptureDurations {
  private CaptureDurations() {}

  /**
   * What a capture measured.
   *
   * @param measured  per interval name the design has, its ranges' times, in the order the names first ended
   * @param unmatched the names of ranges the design has no interval of, in the order they first ended
   */
  public record Result(List<DurationsFile.Measured> measured, List<String> unmatched) {
    public Result {
      measured = List.copyOf(measured);
      unmatched = List.copyOf(unmatched);
    }
  }

  /** The ranges of {@code capture} named as {@code design}'s intervals. */
  public static Result of(Capture capture, Design design) {
    Map<String, DurationsFile.Kind> kinds = new HashMap<>();
    for (var s : design.steps()) {
      if (s instanceof Interval i) {
        kinds.put(i.name(), DurationsFile.Kind.of(i));
      }
    }
    Map<String, Deque<CaptureEvent.RangePush>> open = new HashMap<>(); // by thread and domain
    Map<String, List<Double>> seconds = new LinkedHashMap<>();
    List<String> unmatched = new ArrayList<>();
    for (CaptureEvent e : CaptureSteps.of(capture).events()) {
      if (e instanceof CaptureEvent.RangePush p) {
        open.computeIfAbsent(p.tid() + " " + p.domain(), k -> new ArrayDeque<>()).push(p);
      } else if (e instanceof CaptureEvent.RangePop pop) {
        Deque<CaptureEvent.RangePush> stack = open.get(pop.tid() + " " + pop.domain());
        if (stack == null || stack.isEmpty()) {
          continue; // a pop without its push (the capture began inside the range)
        }
        CaptureEvent.RangePush p = stack.pop();
        if (kinds.containsKey(p.name())) {
          seconds.computeIfAbsent(p.name(), k -> new ArrayList<>()).add((pop.nanos() - p.nanos()) / 1e9);
        } else if (!unmatched.contains(p.name())) {
          unmatched.add(p.name());
        }
      }
    }
    List<DurationsFile.Measured> out = new ArrayList<>();
    seconds.forEach((name, s) -> out.add(new DurationsFile.Measured(name, kinds.get(name), OptionalDouble.empty(), s)));
    return new Result(out, unmatched);
  }
}
