/**
 * Searching a design's states: the exhaustive breadth-first {@link dev.interlock.model.check.Explorer},
 * the {@link dev.interlock.model.check.Checker} that makes its counterexamples minimal, overlap
 * queries, and random schedules ({@link dev.interlock.model.check.Schedules}, on several threads with the answer of one),
 * and the {@link dev.interlock.model.check.SearchListener} that hears how far a search is.
 *
 * <p>Conventions: every search steps through the one {@link dev.interlock.model.state.Model}, so the
 * checker, random schedules and replay cannot disagree on the rules. Search is breadth-first, so
 * every reported trace is a shortest one in transitions at its thread counts; of several violation
 * kinds the checker reports first the one with the fewest threads in total, then the fewest
 * transitions, and lists the others at their own fewest threads. A trace is reordered to switch
 * threads as rarely as possible without changing its length or ending. Threads of one role are
 * interchangeable, so states are stored up to permutation of a role's threads (symmetry
 * reduction), in a compact {@code StateStore}. Only an exhaustive search answers
 * {@link dev.interlock.model.check.Verdict.Safe}: a search stopped by the state limit is
 * {@code LIMIT} and random schedules that find nothing are {@code NONE_FOUND}, never SAFE; each
 * {@link dev.interlock.model.check.Verdict} names its label and the CLI's exit status.
 */
package dev.interlock.model.check;
