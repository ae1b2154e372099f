/**
 * Faults injected into a device and into the engine's steps, seeded and reproducible: the spec ({@link
 * dev.interlock.impl.fault.FaultSpec}), the injector ({@link dev.interlock.impl.fault.Faults}) and the device wrapper
 * ({@link dev.interlock.impl.fault.FaultyDevice}). See docs/faults.md.
 */
package dev.interlock.impl.fault;
