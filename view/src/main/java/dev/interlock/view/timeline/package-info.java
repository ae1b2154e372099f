/**
 * Timelines of real runs in the Chrome trace event format, which ui.perfetto.dev and chrome://tracing open: threads,
 * lock holds, device memory as a counter, and on CUDA the kernels' own device times.
 */
package dev.interlock.view.timeline;
