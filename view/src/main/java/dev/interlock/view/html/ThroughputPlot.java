package dev.interlock.view.html;

import dev.interlock.model.design.Sizes;
import dev.interlock.model.sim.SimRun;
import dev.interlock.model.sim.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/** Writes predicted throughput against worker count as one self-contained HTML page: an inline SVG plot and a table. */
public final class ThroughputPlot {
  /** The verdict of a worker count whose throughput is drawn. */
  public static final String SAFE = "SAFE";

  /** Colours of the designs' curves, in the order given (Okabe-Ito, then darker ones); red is kept for unsafe marks. */
  private static final String[] COLOURS = {"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#7a3fb0", "#404a57",
      "#8a5a00"};

  private static final int LEFT = 72;
  private static final int TOP = 16;
  private static final int PLOT_W = 600;
  private static final int PLOT_H = 300;
  private static final int STRIP_ROW = 22;

  private ThroughputPlot() {}

  /**
   * One worker count of one design: its verdict, and the simulation's summary when it is {@link #SAFE}.
   *
   * @param workers the worker count
   * @param verdict SAFE, or what makes it unsafe there (a check verdict such as OOM, or where a simulated run stopped)
   * @param detail  what happened, for an unsafe count (empty for a safe one)
   * @param point   the simulation's summary: present exactly when the verdict is SAFE, and then not stopped
   */
  public record Cell(int workers, String verdict, String detail, Optional<Simulation.Point> point) {
    public Cell {
      Objects.requireNonNull(verdict, "verdict");
      Objects.requireNonNull(detail, "detail");
      Objects.requireNonNull(point, "point");
      if (workers < 1) {
        throw new IllegalArgumentException("workers are at least 1, got " + workers);
      }
      if (point.isPresent() != verdict.equals(SAFE)) {
        throw new IllegalArgumentException("a throughput goes with SAFE only, got " + verdict + " at " + workers + " workers");
      }
      if (point.isPresent() && (point.get().stop().isPresent() || point.get().workers() != workers)) {
        throw new IllegalArgumentException("a drawn point is a run of " + workers + " workers that did not stop");
      }
    }

    /** The cell of a simulation's summary: SAFE with its throughput, or, when a run stopped, its stop without one. */
    public static Cell of(Simulation.Point p) {
      if (p.stop().isEmpty()) {
        return new Cell(p.workers(), SAFE, "", Optional.of(p));
      }
      SimRun.Stop s = p.stop().get();
      return new Cell(p.workers(), s.kind().name(), String.format(Locale.ROOT, "a simulated run stopped at %.3f s (%s): %s",
          s.seconds(), s.thread(), s.message()), Optional.empty());
    }

    /** A count at which the design is unsafe ({@code verdict}, e.g. OOM from its check): no throughput. */
    public static Cell unsafe(int workers, String verdict, String detail) {
      return new Cell(workers, verdict, detail, Optional.empty());
    }

    boolean safe() {
      return point.isPresent();
    }
  }

  /**
   * One design's curve.
   *
   * @param design  the design's name
   * @param source  where it came from (its file), for the table and the hover
   * @param mutexes its mutexes, in the order their hold and wait medians are shown
   * @param cells   one per worker count, the counts increasing
   */
  public record Series(String design, String source, List<String> mutexes, List<Cell> cells) {
    public Series {
      Objects.requireNonNull(design, "design");
      Objects.requireNonNull(source, "source");
      mutexes = List.copyOf(mutexes);
      cells = List.copyOf(cells);
      for (int i = 1; i < cells.size(); i++) {
        if (cells.get(i).workers() <= cells.get(i - 1).workers()) {
          throw new IllegalArgumentException("worker counts of " + design + " must increase: " + cells.stream()
              .map(Cell::workers).toList());
        }
      }
    }

    Optional<Cell> at(int workers) {
      return cells.stream().filter(c -> c.workers() == workers).findFirst();
    }
  }

  /**
   * What the page shows.
   *
   * @param title       the page's heading
   * @param notes       lines under it (the machine, the plan, untimed intervals)
   * @param xLabel      the x axis's label (which threads the workers are)
   * @param series      one curve per design
   * @param markFastest whether to mark the fastest safe design per worker count ({@code compare})
   */
  public record Plot(String title, List<String> notes, String xLabel, List<Series> series, boolean markFastest) {
    public Plot {
      Objects.requireNonNull(title, "title");
      Objects.requireNonNull(xLabel, "xLabel");
      notes = List.copyOf(notes);
      series = List.copyOf(series);
      if (series.isEmpty() || series.stream().allMatch(s -> s.cells().isEmpty())) {
        throw new IllegalArgumentException("nothing to plot");
      }
    }

    /** The worker counts of any design, increasing. */
    List<Integer> counts() {
      TreeSet<Integer> all = new TreeSet<>();
      series.forEach(s -> s.cells().forEach(c -> all.add(c.workers())));
      return List.copyOf(all);
    }

    /**
     * The index of the fastest safe design at {@code workers}: the highest mean jobs per minute, the first given on a
     * tie (as compare's table); empty when none is safe there.
     */
    Optional<Integer> fastest(int workers) {
      int best = -1;
      double rate = 0;
      for (int i = 0; i < series.size(); i++) {
        Optional<Cell> c = series.get(i).at(workers);
        if (c.isPresent() && c.get().safe() && (best < 0 || c.get().point().get().jobsPerMinute() > rate)) {
          best = i;
          rate = c.get().point().get().jobsPerMinute();
        }
      }
      return best < 0 ? Optional.empty() : Optional.of(best);
    }
  }

  /** The page: heading and notes, the SVG plot with its legend, and the same numbers as a table. */
  public static String render(Plot plot) {
    StringBuilder b = new StringBuilder(1 << 14);
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(HtmlPage.esc(plot.title()))
        .append("</title>\n<style>\n").append(HtmlPage.resource("view.css")).append(HtmlPage.resource("plot.css"))
        .append("</style>\n</head>\n<body>\n<h1>").append(HtmlPage.esc(plot.title())).append("</h1>\n");
    for (String n : plot.notes()) {
      b.append("<p class=\"sub\">").append(HtmlPage.esc(n)).append("</p>\n");
    }
    svg(b, plot);
    table(b, plot);
    b.append("<script>\n").append(HtmlPage.resource("plot.js")).append("</script>\n</body>\n</html>\n");
    return b.toString();
  }

  private static String colour(int i) {
    return COLOURS[i % COLOURS.length];
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /** A step of 1, 2 or 5 times a power of ten that cuts {@code span} into at most about {@code parts} parts. */
  static double niceStep(double span, int parts) {
    double raw = span / parts;
    double p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5}) {
      if (m * p >= raw) {
        return m * p;
      }
    }
    return 10 * p;
  }

  private static void svg(StringBuilder b, Plot plot) {
    List<Integer> counts = plot.counts();
    int lo = counts.get(0);
    int hi = counts.get(counts.size() - 1);
    double top = 0;
    for (Series s : plot.series()) {
      for (Cell c : s.cells()) {
        if (c.safe()) {
          top = Math.max(top, c.point().get().jobsPerMinute() + c.point().get().jobsPerMinuteCi95());
        }
      }
    }
    double yStep = top > 0 ? niceStep(top * 1.05, 6) : 0.2;
    double yMax = top > 0 ? Math.ceil(top * 1.05 / yStep) * yStep : 1;
    double band = (double) PLOT_W / (hi - lo + 1);
    int n = plot.series().size();
    double dodge = Math.min(6, band * 0.5 / n);
    List<Integer> unsafeRows = new ArrayList<>(); // per series, its row in the unsafe strip, or -1
    int rows = 0;
    for (Series s : plot.series()) {
      boolean any = s.cells().stream().anyMatch(c -> !c.safe());
      unsafeRows.add(any ? rows++ : -1);
    }
    int axisY = TOP + PLOT_H;
    int stripTop = axisY + 30;
    int stripBottom = stripTop + rows * STRIP_ROW;
    int height = stripBottom + (rows > 0 ? 34 : 24);
    int longest = plot.series().stream().mapToInt(s -> s.design().length()).max().orElse(0);
    int legendX = LEFT + PLOT_W + 24;
    int width = legendX + Math.max(250, Math.min(420, 40 + 7 * longest)); // the key's longest line is about 220 px

    b.append("<div class=\"plotbox\"><svg class=\"plot\" id=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width)
        .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
        .append("\" role=\"img\" aria-label=\"jobs per minute against workers\" data-y-max=\"").append(yMax)
        .append("\" data-designs=\"").append(n).append("\">\n");
    // y grid, ticks and label
    for (double v = 0; v <= yMax + yStep / 1000; v += yStep) {
      double y = axisY - v / yMax * PLOT_H;
      b.append("<line class=\"grid\" x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + PLOT_W).append("\" y1=\"")
          .append(num(y)).append("\" y2=\"").append(num(y)).append("\"/>");
      b.append("<text class=\"tick\" x=\"").append(LEFT - 6).append("\" y=\"").append(num(y + 4))
          .append("\" text-anchor=\"end\">").append(tick(v, yStep)).append("</text>\n");
    }
    b.append("<text class=\"axislabel\" transform=\"translate(18 ").append(TOP + PLOT_H / 2)
        .append(") rotate(-90)\" text-anchor=\"middle\">jobs per minute</text>\n");
    // x ticks and label
    int xStep = (int) Math.max(1, niceStep(hi - lo + 1, 12));
    for (int w = lo; w <= hi; w++) {
      if ((w - lo) % xStep != 0) {
        continue;
      }
      double x = xOf(w, lo, band);
      b.append("<line class=\"tickmark\" x1=\"").append(num(x)).append("\" x2=\"").append(num(x)).append("\" y1=\"")
          .append(axisY).append("\" y2=\"").append(axisY + 5).append("\"/>");
      b.append("<text class=\"tick\" x=\"").append(num(x)).append("\" y=\"").append(axisY + 18)
          .append("\" text-anchor=\"middle\">").append(w).append("</text>\n");
    }
    b.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + PLOT_W).append("\" y1=\"")
        .append(axisY).append("\" y2=\"").append(axisY).append("\"/>");
    b.append("<line class=\"axis\" x1=\"").append(LEFT).append("\" x2=\"").append(LEFT).append("\" y1=\"").append(TOP)
        .append("\" y2=\"").append(axisY).append("\"/>\n");
    if (rows > 0) {
      b.append("<rect class=\"strip\" x=\"").append(LEFT).append("\" y=\"").append(stripTop - 4).append("\" width=\"")
          .append(PLOT_W).append("\" height=\"").append(rows * STRIP_ROW + 4).append("\"/>");
      b.append("<text class=\"striplabel\" x=\"").append(LEFT - 6).append("\" y=\"").append(stripTop + 11)
          .append("\" text-anchor=\"end\">unsafe</text>\n");
    }
    b.append("<text class=\"axislabel\" x=\"").append(LEFT + PLOT_W / 2).append("\" y=\"").append(height - 8)
        .append("\" text-anchor=\"middle\">").append(HtmlPage.esc(plot.xLabel())).append("</text>\n");
    if (top == 0) {
      b.append("<text class=\"none\" x=\"").append(LEFT + PLOT_W / 2).append("\" y=\"").append(TOP + PLOT_H / 2)
          .append("\" text-anchor=\"middle\">no worker count is safe: no throughput to draw</text>\n");
    }

    for (int i = 0; i < n; i++) {
      Series s = plot.series().get(i);
      double dx = (i - (n - 1) / 2.0) * dodge;
      String colour = colour(i);
      b.append("<g class=\"series\" data-design=\"").append(HtmlPage.esc(s.design())).append("\" data-series=\"").append(i)
          .append("\">\n");
      // the curve: a subpath per run of consecutive safe counts; an unsafe count (or a gap) breaks it
      StringBuilder d = new StringBuilder();
      Cell prev = null;
      for (Cell c : s.cells()) {
        if (c.safe()) {
          boolean joined = prev != null && prev.safe() && prev.workers() == c.workers() - 1;
          d.append(joined ? " L" : (d.length() == 0 ? "M" : " M")).append(num(xOf(c.workers(), lo, band) + dx)).append(' ')
              .append(num(yOf(c.point().get().jobsPerMinute(), yMax)));
        }
        prev = c;
      }
      b.append("<path class=\"curve\" data-design=\"").append(HtmlPage.esc(s.design())).append("\" stroke=\"").append(colour)
          .append("\" d=\"").append(d).append("\"/>\n");
      for (Cell c : s.cells()) {
        double x = xOf(c.workers(), lo, band) + dx;
        boolean best = plot.markFastest() && plot.fastest(c.workers()).equals(Optional.of(i));
        if (c.safe()) {
          Simulation.Point p = c.point().get();
          double y = yOf(p.jobsPerMinute(), yMax);
          double yHi = yOf(p.jobsPerMinute() + p.jobsPerMinuteCi95(), yMax);
          double yLo = yOf(Math.max(0, p.jobsPerMinute() - p.jobsPerMinuteCi95()), yMax);
          b.append("<g class=\"point safe").append(best ? " fastest" : "").append("\" data-design=\"")
              .append(HtmlPage.esc(s.design())).append("\" data-workers=\"").append(c.workers())
              .append("\" data-verdict=\"SAFE\" data-jobs-per-minute=\"").append(p.jobsPerMinute())
              .append("\" data-ci95=\"").append(p.jobsPerMinuteCi95()).append('"')
              .append(best ? " data-fastest=\"true\"" : "").append(">");
          b.append("<title>").append(HtmlPage.esc(hover(s, c, best))).append("</title>");
          b.append("<line class=\"errorbar\" stroke=\"").append(colour).append("\" x1=\"").append(num(x)).append("\" x2=\"")
              .append(num(x)).append("\" y1=\"").append(num(yLo)).append("\" y2=\"").append(num(yHi)).append("\"/>");
          for (double yy : new double[] {yLo, yHi}) {
            b.append("<line class=\"errorbar\" stroke=\"").append(colour).append("\" x1=\"").append(num(x - 4))
                .append("\" x2=\"").append(num(x + 4)).append("\" y1=\"").append(num(yy)).append("\" y2=\"").append(num(yy))
                .append("\"/>");
          }
          if (best) {
            b.append("<circle class=\"ring\" cx=\"").append(num(x)).append("\" cy=\"").append(num(y)).append("\" r=\"8\"/>");
          }
          b.append("<circle class=\"mark\" fill=\"").append(colour).append("\" cx=\"").append(num(x)).append("\" cy=\"")
              .append(num(y)).append("\" r=\"4.5\"/></g>\n");
        } else {
          double y = stripTop + unsafeRows.get(i) * STRIP_ROW + 7;
          b.append("<g class=\"point unsafe\" data-design=\"").append(HtmlPage.esc(s.design())).append("\" data-workers=\"")
              .append(c.workers()).append("\" data-verdict=\"").append(HtmlPage.esc(c.verdict())).append("\">");
          b.append("<title>").append(HtmlPage.esc(hover(s, c, false))).append("</title>");
          b.append("<rect class=\"hit\" x=\"").append(num(x - 7)).append("\" y=\"").append(num(y - 7))
              .append("\" width=\"14\" height=\"14\"/>");
          b.append("<path class=\"mark cross\" d=\"M").append(num(x - 5)).append(' ').append(num(y - 5)).append(" L")
              .append(num(x + 5)).append(' ').append(num(y + 5)).append(" M").append(num(x - 5)).append(' ')
              .append(num(y + 5)).append(" L").append(num(x + 5)).append(' ').append(num(y - 5)).append("\"/>");
          b.append("<text class=\"verdictlabel\" style=\"fill:").append(colour).append("\" x=\"").append(num(x + 8))
              .append("\" y=\"").append(num(y + 4)).append("\">").append(HtmlPage.esc(c.verdict())).append("</text></g>\n");
        }
      }
      b.append("</g>\n");
    }
    legend(b, plot, legendX);
    b.append("</svg></div>\n");
  }

  private static void legend(StringBuilder b, Plot plot, int x) {
    int y = TOP + 8;
    b.append("<g class=\"legend\">\n");
    for (int i = 0; i < plot.series().size(); i++) {
      Series s = plot.series().get(i);
      b.append("<g class=\"entry\" data-design=\"").append(HtmlPage.esc(s.design())).append("\"><title>")
          .append(HtmlPage.esc(s.design() + " (" + s.source() + ")")).append("</title>");
      b.append("<line stroke=\"").append(colour(i)).append("\" stroke-width=\"2\" x1=\"").append(x).append("\" x2=\"")
          .append(x + 24).append("\" y1=\"").append(y).append("\" y2=\"").append(y).append("\"/>");
      b.append("<circle fill=\"").append(colour(i)).append("\" cx=\"").append(x + 12).append("\" cy=\"").append(y)
          .append("\" r=\"4\"/>");
      b.append("<text x=\"").append(x + 32).append("\" y=\"").append(y + 4).append("\">").append(HtmlPage.esc(s.design()))
          .append("</text></g>\n");
      y += 18;
    }
    y += 6;
    b.append("<line class=\"errorbar\" stroke=\"#555\" x1=\"").append(x + 12).append("\" x2=\"").append(x + 12)
        .append("\" y1=\"").append(y - 6).append("\" y2=\"").append(y + 6).append("\"/><text class=\"key\" x=\"").append(x + 32)
        .append("\" y=\"").append(y + 4).append("\">95% CI of the mean</text>\n");
    y += 18;
    b.append("<path class=\"cross\" d=\"M").append(x + 7).append(' ').append(y - 5).append(" L").append(x + 17).append(' ')
        .append(y + 5).append(" M").append(x + 7).append(' ').append(y + 5).append(" L").append(x + 17).append(' ')
        .append(y - 5).append("\"/><text class=\"key\" x=\"").append(x + 32).append("\" y=\"").append(y + 4)
        .append("\">unsafe: its verdict, no throughput</text>\n");
    if (plot.markFastest()) {
      y += 18;
      b.append("<circle class=\"ring\" cx=\"").append(x + 12).append("\" cy=\"").append(y).append("\" r=\"8\"/><text class=\"key\" x=\"")
          .append(x + 32).append("\" y=\"").append(y + 4).append("\">fastest safe design</text>\n");
    }
    b.append("</g>\n");
  }

  private static String tick(double v, double step) {
    return step >= 1 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%." + decimals(step) + "f", v);
  }

  private static int decimals(double step) {
    return (int) Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
  }

  private static double xOf(int workers, int lo, double band) {
    return LEFT + (workers - lo + 0.5) * band;
  }

  private static double yOf(double jobsPerMinute, double yMax) {
    return TOP + PLOT_H - jobsPerMinute / yMax * PLOT_H;
  }

  /** The hover text of a point: everything the table's row says. */
  static String hover(Series s, Cell c, boolean fastest) {
    StringBuilder t = new StringBuilder(s.design()).append(", ").append(c.workers()).append(c.workers() == 1 ? " worker" : " workers");
    if (!c.safe()) {
      return t.append('\n').append(c.verdict()).append(c.detail().isEmpty() ? "" : ": " + c.detail())
          .append("\nno throughput: unsafe at this count").toString();
    }
    Simulation.Point p = c.point().get();
    t.append(String.format(Locale.ROOT, "%njobs/min %.2f \u00b1 %.2f (95%% CI, %d runs)", p.jobsPerMinute(), p.jobsPerMinuteCi95(),
        p.runs().size()));
    t.append(String.format(Locale.ROOT, "%nlatency median %.3f s, p95 %.3f s", p.latencyMedian(), p.latencyP95()));
    t.append(String.format(Locale.ROOT, "%nGPU busy %.1f%%", 100 * p.gpuBusyFraction()));
    t.append("\npeak device ").append(Sizes.format(p.peakUsedBytes())).append(" (live and cached)");
    for (String m : s.mutexes()) {
      t.append('\n').append(m).append(" hold ").append(seconds(p.holdMedian().get(m))).append(", wait ")
          .append(seconds(p.waitMedian().get(m))).append(" (medians)");
    }
    if (fastest) {
      t.append("\nfastest safe design at ").append(c.workers()).append(c.workers() == 1 ? " worker" : " workers");
    }
    return t.toString();
  }

  private static String seconds(Optional<Double> s) {
    return s == null || s.isEmpty() ? "-" : String.format(Locale.ROOT, "%.3f s", s.get());
  }

  private static void table(StringBuilder b, Plot plot) {
    b.append("<table class=\"points\" id=\"points\">\n<thead><tr><th>workers</th><th>design</th><th>jobs/min (95% CI)</th>"
        + "<th>latency median</th><th>latency p95</th><th>GPU busy</th><th>peak device</th><th>locks: hold / wait (medians)</th>");
    if (plot.markFastest()) {
      b.append("<th>fastest safe</th>");
    }
    b.append("</tr></thead>\n<tbody>\n");
    for (int w : plot.counts()) {
      Optional<Integer> best = plot.markFastest() ? plot.fastest(w) : Optional.empty();
      for (int i = 0; i < plot.series().size(); i++) {
        Series s = plot.series().get(i);
        Optional<Cell> oc = s.at(w);
        if (oc.isEmpty()) {
          continue;
        }
        Cell c = oc.get();
        boolean isBest = best.equals(Optional.of(i));
        b.append("<tr data-design=\"").append(HtmlPage.esc(s.design())).append("\" data-workers=\"").append(w)
            .append("\" data-verdict=\"").append(HtmlPage.esc(c.verdict())).append('"').append(isBest ? " class=\"fastest\"" : "")
            .append("><td>").append(w).append("</td><td title=\"").append(HtmlPage.esc(s.source())).append("\"><i style=\"background:")
            .append(colour(i)).append("\"></i>").append(HtmlPage.esc(s.design())).append("</td>");
        if (c.safe()) {
          Simulation.Point p = c.point().get();
          StringBuilder locks = new StringBuilder();
          for (String m : s.mutexes()) {
            locks.append(locks.length() == 0 ? "" : "; ").append(m).append(' ').append(seconds(p.holdMedian().get(m)))
                .append(" / ").append(seconds(p.waitMedian().get(m)));
          }
          b.append(String.format(Locale.ROOT, "<td class=\"num\">%.2f \u00b1 %.2f</td><td class=\"num\">%.3f s</td>"
              + "<td class=\"num\">%.3f s</td><td class=\"num\">%.1f%%</td><td class=\"num\">%s</td>", p.jobsPerMinute(),
              p.jobsPerMinuteCi95(), p.latencyMedian(), p.latencyP95(), 100 * p.gpuBusyFraction(), Sizes.format(p.peakUsedBytes())))
              .append("<td>").append(HtmlPage.esc(locks.length() == 0 ? "-" : locks.toString())).append("</td>");
        } else {
          b.append("<td class=\"bad\">").append(HtmlPage.esc(c.verdict())).append("</td><td colspan=\"5\" class=\"detail\">")
              .append(HtmlPage.esc(c.detail().isEmpty() ? "no throughput" : c.detail())).append("</td>");
        }
        if (plot.markFastest()) {
          b.append("<td>").append(isBest ? "fastest" : "").append("</td>");
        }
        b.append("</tr>\n");
      }
      if (plot.markFastest() && best.isEmpty()) {
        b.append("<tr class=\"nosafe\" data-workers=\"").append(w).append("\"><td>").append(w)
            .append("</td><td colspan=\"8\">no design is safe at ").append(w).append(w == 1 ? " worker" : " workers")
            .append("</td></tr>\n");
      }
    }
    b.append("</tbody>\n</table>\n");
  }
}
