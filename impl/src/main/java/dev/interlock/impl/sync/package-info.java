/**
 * Synchronization for engine threads: a non-reentrant mutex, a counting semaphore that knows who
 * holds its permits, and the step gate.
 *
 * <p>Conventions: the primitives admit exactly what the model enables (a lock when the mutex is
 * free, an acquire of n whenever n permits are free, whoever waited first) and offer no operation
 * the model has no step for (docs/engine-sync.md). In a normal run a primitive that cannot proceed
 * parks, like {@code java.util.concurrent}'s; when a {@link dev.interlock.impl.sync.StepGate} is
 * {@code controlled()}, it reports {@code blocked()} to the gate and retries when told to, so a
 * deterministic scheduler always knows where every thread is. Misuse the model names (locking a
 * held mutex, unlocking one not held, releasing more permits than held) throws a
 * {@link dev.interlock.impl.sync.SyncException} with the model's verdict. Threads blocked here are
 * visible to the deadlock watchdog through {@link dev.interlock.impl.sync.WaitRegistry}.
 */
package dev.interlock.impl.sync;
