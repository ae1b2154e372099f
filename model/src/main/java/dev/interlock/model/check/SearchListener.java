package dev.interlock.model.check;

import java.util.Map;

/**
 * Hears how a running check is going, so that a long one can show progress and an interrupted one can say what it had
 * done. Calls come from the searching threads; an implementation that others read must publish safely.
 */
public interface SearchListener {
  /** Listens to nothing. */
  SearchListener NONE = new SearchListener() {};


  /**
   * A breadth-first search of one configuration begins.
   *
   * @param threads per-role thread counts searched
   * @param checked whether these are the checked counts, not a smaller configuration searched to minimize
   */
  default void configuration(Map<String, Integer> threads, boolean checked) {}

  /**
   * Where the breadth-first search is: called when it starts, at the end of each level, and within a level expanded in
   * slices (on several search threads) after each slice's new states are stored.
   *
   * @param depth       the level being expanded (transitions from the initial state)
   * @param states      distinct states stored so far
   * @param transitions transitions computed so far
   * @param queue       states stored but not yet expanded
   */
  default void progress(int depth, long states, long transitions, long queue) {}

  /**
   * Random schedules so far, over all threads: called every few schedules.
   *
   * @param run         schedules run to their end
   * @param transitions their transitions
   */
  default void schedules(long run, long transitions) {}

  /**
   * Where the parameterized analysis of {@code --threads ROLE=any} is, before its bounded searches: called as it goes.
   *
   * @param stage    what it does now, in words ("backward search for OOM")
   * @param elements basis elements (or, for memory isolation, states of one worker alone) so far
   * @param expanded elements expanded so far (for memory isolation, the same as elements)
   */
  default void analysis(String stage, long elements, long expanded) {}

  /**
   * An estimate of the whole breadth-first search ({@link SearchSize}), made at the end of a level, once there is one.
   *
   * @param states     states it is expected to store in all
   * @param bytes      their state store's bytes, at the bytes per state so far; -1 while the store holds fewer than
   *                   a million states (its preallocated tables would count for more than its states)
   * @param depth      the level just stored
   * @param totalDepth the depth it is expected to reach
   * @param fits       whether both are within the search's limits (--max-states, and the memory it may use)
   */
  default void estimate(long states, long bytes, int depth, int totalDepth, boolean fits) {}
}
