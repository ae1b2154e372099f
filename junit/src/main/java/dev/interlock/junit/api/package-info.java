/**
 * The stable API for a user's own tests: {@code Interlock.check} and its AssertJ assertions,
 * {@code @DesignTest} (one dynamic test per design file, against its {@code # expect:} line),
 * {@code PipelineConformance} (a user's Java pipeline against its design), and {@code Interlock.fidelity} (does the
 * device do what the model says?).
 *
 * <p>Conventions: everything here may be relied on between versions; everything outside the {@code api}
 * packages may change. Lincheck is an optional dependency, needed only by
 * {@code PipelineConformance.linearizable()}.
 */
package dev.interlock.junit.api;
