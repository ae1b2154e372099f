/**
 * A design file's expected check result: the {@code # expect:} line ({@link dev.interlock.model.expect.ExpectLine},
 * the grammar) and the {@link dev.interlock.model.expect.Expectation} it reads as, which alone decides whether a
 * {@link dev.interlock.model.check.CheckReport} meets it.
 *
 * <p>Conventions: a file without an expect line is expected SAFE; a malformed line is a positioned
 * {@link dev.interlock.model.design.DesignException}, never a silent SAFE; {@link dev.interlock.model.expect.DesignExpectations}
 * runs the check an expectation asks for, so that the JUnit API and the Maven plugin cannot check differently.
 */
package dev.interlock.model.expect;
