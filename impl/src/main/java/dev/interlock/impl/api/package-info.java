/**
 * The stable contract for pipeline authors: what a {@link dev.interlock.impl.api.Pipeline} of your own is written
 * against, so that the engine can run it and check its traces against a design.
 *
 * <p>This package is interlock-impl's public API and changes only compatibly; everything else in interlock-impl
 * (the engine, the simulated device, the sync primitives, the shipped pipelines) is implementation and may change.
 * A pipeline gets a {@link dev.interlock.impl.api.Worker} per thread, takes its mutexes and semaphores from the
 * run's {@link dev.interlock.impl.api.Resources} by their names in the design, calls the
 * {@link dev.interlock.impl.api.Device}, and wraps each step in the worker's {@link dev.interlock.impl.api.Probe},
 * naming it by its text in the design ({@code probe.step("alloc staged 12GiB", ...)}); it needs no other import.
 * {@code dev.interlock.impl.pipeline.SingleLockPipeline} is the example to copy.
 */
package dev.interlock.impl.api;
