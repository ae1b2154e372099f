/**
 * Timelines of real runs in the Chrome trace event format, which ui.perfetto.dev and chrome://tracing open: an engine
 * run ({@link dev.interlock.view.timeline.RunTimeline}: threads, lock holds, device memory as a counter, and on CUDA
 * the kernels' own device times) and a captured run of a native engine
 * ({@link dev.interlock.view.timeline.CaptureTimeline}) both become one neutral
 * {@link dev.interlock.view.timeline.Timeline} (groups of tracks with slices and instants, and counters), which
 * {@link dev.interlock.view.timeline.ChromeTrace}, the one writer, writes.
 */
package dev.interlock.view.timeline;
