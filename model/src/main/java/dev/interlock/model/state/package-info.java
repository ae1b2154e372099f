/**
 * The state model: workers (a role thread with the task threads its jobs spawn), mutexes,
 * semaphores, events, and device-global VRAM with its memory pool, and their transitions.
 *
 * <p>{@link dev.interlock.model.state.Model} is the one place the semantics live, and
 * {@link dev.interlock.model.state.DeviceMemory} the one place the device-memory rules live. States
 * are packed {@code long[]} arrays for speed, one block of words per worker
 * ({@code WorkerLayout}: bit fields allocated by {@code Field.Allocator}, bodies compiled by
 * {@code Code}); {@link dev.interlock.model.state.ThreadView} is the readable form. Transitions
 * report {@code MOVED}, {@code BLOCKED}, {@code FINISHED} or a
 * {@link dev.interlock.model.state.ViolationKind}.
 */
package dev.interlock.model.state;
