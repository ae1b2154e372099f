/**
 * The reference engine: real threads, locks and a device-global VRAM device running lock designs.
 *
 * <p>Sub-packages: {@code api} (the stable contract a pipeline is written against: pipeline,
 * worker, probe, resources, device; the rest may change), {@code device} (the simulated device
 * and the device's failures), {@code sync} (the engine's mutex and semaphore, step gate),
 * {@code engine} (workers, jobs, events, scheduling, watchdog), {@code pipeline} (the design
 * interpreter and hand-written pipelines). Every failure the model
 * names is a {@link dev.interlock.impl.ViolationException} carrying the model's verdict, and every
 * step emits an event in the model's trace vocabulary, so runs compare with the model transition
 * by transition.
 */
package dev.interlock.impl;
