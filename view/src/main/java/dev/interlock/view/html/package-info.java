/**
 * The HTML trace view: one self-contained file (inline SVG, CSS and JS, nothing fetched) with a lane per thread,
 * lock and permit bars, device memory as a stacked area against the vram line, and the violation marked.
 *
 * <p>{@link dev.interlock.view.html.ThroughputPlot} is the other page here: simulated throughput against workers, from
 * {@code Simulation.Point} objects ({@code simulate} and {@code compare --html}).
 *
 * <p>Written from {@code Trace} objects and run events, never parsed back: the text trace stays the canonical format.
 */
package dev.interlock.view.html;
