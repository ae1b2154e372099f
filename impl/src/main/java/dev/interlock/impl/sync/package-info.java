/**
 * Synchronization for engine threads: a non-reentrant mutex, a counting semaphore that knows who
 * holds its permits, and the step gate.
 *
 * <p>Conventions: in a normal run the primitives block like {@code java.util.concurrent}'s; when a
 * {@link dev.interlock.impl.sync.StepGate} is {@code controlled()}, a primitive that cannot proceed
 * reports {@code blocked()} to the gate and retries when told to, so a deterministic scheduler
 * always knows where every thread is. Misuse the model names (locking a held mutex, unlocking one
 * not held, releasing more permits than held) throws a {@link dev.interlock.impl.sync.SyncException}
 * with the model's verdict. Threads blocked here are visible to the deadlock watchdog through
 * {@link dev.interlock.impl.sync.WaitRegistry}.
 */
package dev.interlock.impl.sync;
