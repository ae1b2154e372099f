package dev.interlock.impl.engine;

import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Step;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The steps that step texts given to a probe name, parsed once by the design language's parser and cached.
 *
 * <p>Why a cache: the probe is on every step's path, and a pipeline names the same few steps job after job. The
 * parser ({@link DesignParser#step}) is the one reader of step text, so a probe's step means what the same line in
 * a design means. The cache is bounded: texts past the bound are parsed each time.
 */
final class StepTexts {
  /** Distinct texts kept; a pipeline names tens, one that builds texts from varying numbers may name more. */
  private static final int MAX_CACHED = 4096;

  private static final Map<String, Step> PARSED = new ConcurrentHashMap<>();

  private StepTexts() {}

  /**
   * The step {@code text} names.
   *
   * @throws IllegalArgumentException naming the text and the parser's message when it is not one step
   */
  static Step step(String text) {
    Objects.requireNonNull(text, "step text");
    Step s = PARSED.get(text);
    if (s != null) {
      return s;
    }
    try {
      s = DesignParser.step(text);
    } catch (DesignException e) {
      throw new IllegalArgumentException("step text '" + text + "' is not a step: " + e.getMessage(), e);
    }
    if (PARSED.size() < MAX_CACHED) {
      PARSED.putIfAbsent(text, s);
    }
    return s;
  }

  /** The interval step (kernel or cpu) {@code text} names, for a begin or an end. */
  static Interval interval(String text) {
    if (step(text) instanceof Interval i) {
      return i;
    }
    throw new IllegalArgumentException("step text '" + text + "' is not an interval step (a kernel or cpu step), so it"
        + " has no begin and end");
  }

  /** The cpu step {@code text} names, for a whole interval of CPU work. */
  static Cpu cpu(String text) {
    if (step(text) instanceof Cpu c) {
      return c;
    }
    throw new IllegalArgumentException("step text '" + text + "' is not a cpu step, so it is no interval of CPU work");
  }
}
