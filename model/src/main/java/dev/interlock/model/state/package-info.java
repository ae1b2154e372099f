/**
 * The state model: threads, mutexes, semaphores and device-global VRAM, and their transitions.
 *
 * <p>{@link dev.interlock.model.state.Model} is the one place the semantics live. States are packed
 * {@code long[]} arrays for speed; {@link dev.interlock.model.state.ThreadView} is the readable
 * form. Transitions report {@code MOVED}, {@code BLOCKED}, {@code FINISHED} or a
 * {@link dev.interlock.model.state.ViolationKind}.
 */
package dev.interlock.model.state;
