/**
 * Verdicts for every number of threads of a role ({@code check --threads ROLE=any}): the counter abstraction of a
 * design, backward coverability over it for the upward-closed violation kinds, memory isolation for designs outside
 * its fragment, and the bounded search for the rest.
 *
 * <p>{@link dev.interlock.model.param.LocalSystem} asks {@link dev.interlock.model.state.Model} what one worker's
 * steps do; {@link dev.interlock.model.param.Coverability} decides, per kind, the thread counts from which a violation
 * is coverable; {@link dev.interlock.model.param.MemoryIsolation} checks that one mutex isolates every worker's device
 * memory and explores one worker alone, also by asking Model; {@link dev.interlock.model.param.AnyChecker} joins
 * either with the existing checker. docs/parameterized.md gives both arguments.
 */
package dev.interlock.model.param;
