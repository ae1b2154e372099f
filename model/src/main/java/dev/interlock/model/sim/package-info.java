/**
 * Timed simulation of a design ({@code interlock simulate}): what throughput a design gives on a machine, from the
 * durations of its steps.
 *
 * <p>The simulation adds time and the machine's resources (GPU, host cores) and nothing else: what a step means, whether
 * it may run, and what it does to locks, events and device memory are {@link dev.interlock.model.state.Model}'s, asked
 * step by step. {@link dev.interlock.model.sim.Simulator} runs one seeded run; {@link dev.interlock.model.sim.Simulation}
 * sweeps worker counts and runs and summarizes them. docs/simulate.md gives the method and its limits.
 */
package dev.interlock.model.sim;
