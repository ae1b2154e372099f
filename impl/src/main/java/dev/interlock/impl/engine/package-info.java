/**
 * The engine: worker threads per role take jobs from a queue and run each through a pipeline;
 * every step goes through a {@link dev.interlock.impl.engine.RecordingProbe}, which passes the step gate and
 * records an {@link dev.interlock.impl.engine.Event} in the model's vocabulary.
 *
 * <p>Conventions: a job ends {@code Completed}, {@code Failed} (with the step, thread, verdict and
 * device state) or {@code Aborted} (a controlled run ended first); none is dropped. A job is a
 * {@link dev.interlock.impl.engine.JobScope}: its role thread and the tasks it spawns share its
 * buffers and events, and it closes (checked for leaks) when the last of them ends, which may be
 * after the role thread has started its next job. Kept buffers belong to the role thread's
 * {@link dev.interlock.impl.engine.Crew}. After a failed job each of its threads releases its
 * mutexes and permits and the job's buffers are freed, so the others can go on. Threads are named
 * as in traces: {@code role#i}, and {@code role#i/TASK@J[.k]} for tasks.
 */
package dev.interlock.impl.engine;
