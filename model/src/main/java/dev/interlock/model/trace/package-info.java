/**
 * Traces: a schedule of the model and how it ends (a violation, an overlap, every thread
 * finished, or stopped short: a prefix of a captured run), the unit the checker reports, replay re-executes and traces/ stores.
 *
 * <p>Conventions: {@link dev.interlock.model.trace.TraceFormat} is the one place a trace is read and
 * written, and {@code parse(print(t)).equals(t)}; a malformed file is a
 * {@link dev.interlock.model.trace.TraceFormatException} with its {@code FILE:LINE:COL} position.
 * {@link dev.interlock.model.trace.TraceRecorder} is the one place transitions become trace lines.
 * A trace carries the {@link dev.interlock.model.trace.Parameters} the model ran with and the design
 * file it came from, so {@link dev.interlock.model.trace.Replayer} rebuilds the same model and
 * confirms each transition (thread, step, phase, used and cached bytes) and the recorded
 * {@link dev.interlock.model.trace.Outcome}, or says where it diverges. Steps are indexed from 1,
 * step text is as in the design, and for a failing step the last transition is that step.
 */
package dev.interlock.model.trace;
