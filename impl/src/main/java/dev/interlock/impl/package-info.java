/**
 * The reference engine: real threads, locks and a device-global VRAM device running lock designs.
 *
 * <p>Sub-packages: {@code device} (the device interface and the simulated device), {@code sync}
 * (mutex, semaphore, step gate), {@code engine} (workers, jobs, events, scheduling, watchdog),
 * {@code pipeline} (the design interpreter and hand-written pipelines). Every failure the model
 * names is a {@link dev.interlock.impl.ViolationException} carrying the model's verdict, and every
 * step emits an event in the model's trace vocabulary, so runs compare with the model transition
 * by transition.
 */
package dev.interlock.impl;
