/**
 * The model as a sequential specification of the engine's job ({@link dev.interlock.impl.lincheck.ModelJobSpec}), for
 * Lincheck checks: in main rather than in tests, since interlock-junit's {@code PipelineConformance.linearizable()}
 * and the GPU module's Lincheck tests use it too. Nothing here depends on Lincheck.
 */
package dev.interlock.impl.lincheck;
