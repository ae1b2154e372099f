/**
 * The steps a thread of a role executes, one record per keyword of the design language.
 *
 * <p>{@link dev.interlock.model.step.Step} is sealed: every consumer switches over it exhaustively,
 * so a new step kind is a compile error in each place that must learn about it. Interval steps
 * ({@link dev.interlock.model.step.Interval}) take two transitions, begin and end.
 */
package dev.interlock.model.step;
