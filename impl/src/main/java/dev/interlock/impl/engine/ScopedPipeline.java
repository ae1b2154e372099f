package dev.interlock.impl.engine;

import dev.interlock.impl.api.Pipeline;

/**
 * A pipeline that registers its jobs' buffers in the job's scope ({@link EngineWorker#job()}), as the design
 * interpreter does.
 *
 * <p>Why the engine needs to know: for such a pipeline the job's buffers are those in its scope, which its spawned
 * tasks share; for any other pipeline (hand-written ones, a user's) the buffers its thread owns on the device at
 * the job's end are the job's. It runs on the engine's own workers: {@link EngineWorker#of} gives it the engine's
 * view of the worker it is handed.
 */
public interface ScopedPipeline extends Pipeline {}
