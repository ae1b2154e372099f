/**
 * Does the device do what the model says? {@link dev.interlock.fidelity.Fidelity} computes a design's model verdict
 * and compares it with the engine's run of the design on a device: a violation's minimal counterexample is replayed
 * and must end in the same outcome at the same transition (on a device whose driver names its errors, an OOM must
 * carry the driver's own); a SAFE design's free runs with timing jitter must complete every job with nothing live.
 *
 * <p>The answer is a {@link dev.interlock.fidelity.FidelityReport} per design: the model's verdict, the device's
 * outcome and whether they agree. {@code interlock fidelity}, the JUnit API's {@code Interlock.fidelity} and the Maven
 * plugin's {@code interlock:fidelity} goal all call it, and only format what it returns.
 */
package dev.interlock.fidelity;
