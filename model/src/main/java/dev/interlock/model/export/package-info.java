/**
 * Exporting a design as a Promela model for Spin ({@code interlock export --promela}), so that both checkers can be
 * run side by side on the same design.
 *
 * <p>{@link dev.interlock.model.export.PromelaExport} writes the model; each step's Promela is written by
 * {@link dev.interlock.model.export.StepWriter}, a {@link dev.interlock.model.step.Step.Visitor}, so a new step kind
 * does not compile until it has a translation. The meaning of every step is {@link dev.interlock.model.state.Model}'s
 * (and {@link dev.interlock.model.state.DeviceMemory}'s for the pool); docs/promela.md lists the mapping and where
 * it differs.
 */
package dev.interlock.model.export;
