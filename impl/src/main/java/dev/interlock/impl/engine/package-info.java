/**
 * The engine: worker threads per role take jobs from a queue and run each through a pipeline;
 * every step goes through a {@link dev.interlock.impl.engine.Probe}, which passes the step gate and
 * records an {@link dev.interlock.impl.engine.Event} in the model's vocabulary.
 *
 * <p>Conventions: a job ends {@code Completed}, {@code Failed} (with the step, thread, verdict and
 * device state) or {@code Aborted} (a controlled run ended first); none is dropped. After a failed
 * job the engine releases what the thread still holds (mutexes, permits, buffers) so the others
 * can go on. Threads are named {@code role#i}, as in traces.
 */
package dev.interlock.impl.engine;
