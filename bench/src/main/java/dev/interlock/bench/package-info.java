/**
 * Benchmark programs of the prover on the CPU (field, curve, MSM, whole stages): they print figures and are not tests.
 * The CLI's {@code bench-prover} and {@code bench-msm} run them; speed targets and recorded numbers live in
 * BENCHMARKS.md.
 */
package dev.interlock.bench;
