package dev.interlock.cli;

import dev.interlock.impl.engine.RunReport;
import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Trace;
import dev.interlock.view.html.HtmlPage;
import dev.interlock.view.html.TraceView;
import dev.interlock.view.html.TraceViews;
import java.nio.file.Path;
import java.util.List;

/** The {@code --html OUT.html} of check, replay, run and show: builds the views and writes the page. */
final class HtmlViews {
  private HtmlViews() {}

  /** Writes a page of {@code views} to {@code out} (an existing file only with {@code force}). */
  static void write(Path out, boolean force, String title, List<TraceView> views) {
    TraceFiles.write(HtmlPage.render(title, views), out, force, "HTML view");
  }

  /** Writes a page with one trace on it; {@code design} is the trace's design as parsed. */
  static void trace(Path out, boolean force, String title, Trace trace, Design design) {
    TraceFiles.write(HtmlPage.ofTrace(title, trace, design), out, force, "HTML view");
  }

  /** Writes a page with a trace and the engine's replay of it, aligned by transition. */
  static void replay(Path out, boolean force, Trace trace, Design design, Design applied, String where, RunReport run) {
    write(out, force, "replay: " + trace.design(), List.of(TraceViews.ofTrace("trace (model)", trace, design),
        TraceViews.ofRun("replayed on " + where, applied, trace.source(), run, TraceView.Axis.TRANSITION)));
  }

  /** Writes a page with a run's recorded events on its clock. */
  static void run(Path out, boolean force, String title, Design design, String source, RunReport run) {
    write(out, force, title + ": " + design.name(), List.of(TraceViews.ofRun(title, design, source, run, TraceView.Axis.TIME)));
  }
}
