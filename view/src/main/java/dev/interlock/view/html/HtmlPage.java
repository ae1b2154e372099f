package dev.interlock.view.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.trace.Trace;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes trace views as one self-contained HTML page: the text (verdicts, numbers) as HTML, the drawing data as
 * inline JSON that an inline script turns into SVG. Nothing is fetched, so the file opens from disk anywhere.
 */
public final class HtmlPage {
  private static final ObjectMapper JSON = new ObjectMapper();

  private HtmlPage() {}

  /** The page showing one trace, titled {@code "KIND: DESIGN"} ({@code kind}: counterexample, overlap witness, ...). */
  public static String ofTrace(String kind, Trace trace, Design design) {
    return render(kind + ": " + trace.design(), List.of(TraceViews.ofTrace(kind, trace, design)));
  }

  /** The page showing {@code views} one under the other, transition columns aligned. */
  public static String render(String title, List<TraceView> views) {
    if (views.isEmpty()) {
      throw new IllegalArgumentException("no trace to show");
    }
    StringBuilder b = new StringBuilder(1 << 16);
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>").append(esc(title))
        .append("</title>\n<style>\n").append(resource("view.css")).append("</style>\n</head>\n<body>\n<h1>")
        .append(esc(title)).append("</h1>\n");
    ArrayNode data = JSON.createArrayNode();
    for (int i = 0; i < views.size(); i++) {
      section(b, views.get(i), i);
      data.add(json(views.get(i)));
    }
    ObjectNode root = JSON.createObjectNode();
    root.set("views", data);
    String text;
    try {
      text = JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    b.append("<div id=\"tip\" hidden></div>\n<script type=\"application/json\" id=\"interlock-data\">")
        .append(text.replace("</", "<\\/")).append("</script>\n<script>\n").append(resource("view.js"))
        .append("</script>\n</body>\n</html>\n");
    return b.toString();
  }

  /** The verdict line of a view, as the page shows it. */
  public static String verdictLine(TraceView v) {
    if (v.highlight().isEmpty()) {
      return "COMPLETED: every thread ran all its jobs";
    }
    TraceView.Highlight h = v.highlight().get();
    if (h.verdict().equals("OVERLAP")) {
      return h.message() + " (at transition " + h.index() + ")";
    }
    boolean stepFailed = h.index() >= 1 && h.index() <= v.marks().size() && v.marks().get(h.index() - 1).failed();
    return h.verdict() + (stepFailed || h.index() == 0 ? " at" : " after") + " transition " + h.index() + ": " + h.message();
  }

  /**
   * For a swallowed failure: the buffer the job goes on without, the steps that run without it (the model's list), and
   * where the trace shows them (its steps after the violation), or that it stops before them.
   */
  static String withoutLine(TraceView v, TraceView.Highlight h, String missing) {
    StringBuilder b = new StringBuilder("on oom ignore: the job goes on without ").append(missing);
    if (h.runWithout().isEmpty()) {
      return b.append("; no later step uses it").toString();
    }
    b.append("; these steps run without it: ").append(String.join(", ", h.runWithout()));
    List<String> shown = v.marks().stream().filter(m -> m.without().contains(missing))
        .map(m -> "#" + m.index()).toList();
    return b.append(shown.isEmpty() ? " (after the trace's last transition)"
        : " (" + String.join(", ", shown) + ", marked in their lanes)").toString();
  }

  private static void section(StringBuilder b, TraceView v, int i) {
    b.append("<section class=\"view\" id=\"view-").append(i).append("\">\n<h2>").append(esc(v.title())).append("</h2>\n")
        .append("<p class=\"sub\">").append(esc(v.subtitle())).append("</p>\n");
    String cls = v.highlight().isEmpty() ? "" : v.highlight().get().verdict().equals("OVERLAP") ? " overlap" : " bad";
    b.append("<p class=\"verdict").append(cls).append("\" id=\"verdict-").append(i).append("\">").append(esc(verdictLine(v)))
        .append("</p>\n");
    v.highlight().ifPresent(h -> {
      StringBuilder n = new StringBuilder();
      h.requested().ifPresent(r -> n.append("requested ").append(Sizes.format(r)).append(" \u00b7 "));
      h.live().ifPresent(l -> n.append("live ").append(Sizes.format(l)).append(" \u00b7 "));
      h.free().ifPresent(f -> n.append("free ").append(Sizes.format(f)).append(" \u00b7 "));
      n.append("vram ").append(Sizes.format(v.vram()));
      b.append("<p class=\"numbers\">").append(esc(n.toString())).append("</p>\n");
      h.missing().ifPresent(m -> b.append("<p class=\"without\" id=\"without-").append(i).append("\">")
          .append(esc(withoutLine(v, h, m))).append("</p>\n"));
      if (h.live().isPresent()) {
        b.append("<p class=\"live\">live before transition ").append(h.index()).append(": ")
            .append(esc(h.liveBuffers().isEmpty() ? "none" : String.join(", ", h.liveBuffers()))).append("</p>\n");
      }
    });
    v.divergence().ifPresent(d -> b.append("<p class=\"diverged\">the model could not follow from transition ")
        .append(d.index()).append(": ").append(esc(d.reason())).append("; marks and device bytes from there on are as recorded</p>\n"));
    b.append("<div class=\"chart\" id=\"chart-").append(i).append("\"></div>\n<div class=\"legend\" id=\"legend-").append(i)
        .append("\"></div>\n</section>\n");
  }

  private static ObjectNode json(TraceView v) {
    ObjectNode o = JSON.createObjectNode();
    o.put("axis", v.axis() == TraceView.Axis.TIME ? "time" : "transition");
    o.put("vram", v.vram());
    ArrayNode lanes = o.putArray("lanes");
    v.lanes().forEach(l -> lanes.addArray().add(l.thread()).add(l.task()).add(l.roleThread()));
    ArrayNode marks = o.putArray("marks");
    v.marks().forEach(m -> {
      ArrayNode a = marks.addArray().add(m.x()).add(m.lane()).add(m.index()).add(m.step()).add(m.phase())
          .add(m.used()).add(m.cached()).add(m.failed() ? 1 : 0).add(m.category().ordinal()).add(m.oom().key());
      ArrayNode without = a.addArray();
      m.without().forEach(without::add);
      a.add(m.after() ? 1 : 0);
    });
    ArrayNode categories = o.putArray("categories");
    for (StepCategory c : StepCategory.values()) {
      categories.add(c.key());
    }
    ArrayNode boxes = o.putArray("boxes");
    v.boxes().forEach(x -> {
      ArrayNode a = boxes.addArray().add(x.lane()).add(x.name()).add(x.kernel() ? 1 : 0).add(x.from()).add(x.to())
          .add(x.open() ? 1 : 0);
      ArrayNode without = a.addArray();
      x.without().forEach(without::add);
    });
    ArrayNode locks = o.putArray("locks");
    v.locks().forEach(locks::add);
    ArrayNode holds = o.putArray("holds");
    v.holds().forEach(h -> holds.addArray().add(h.lock()).add(h.holder()).add(h.permits()).add(h.from()).add(h.to())
        .add(h.open() ? 1 : 0));
    ArrayNode series = o.putArray("series");
    v.series().forEach(s -> series.addArray().add(s.worker()).add(s.buffer()).add(s.label()).add(s.kept() ? 1 : 0));
    ArrayNode samples = o.putArray("samples");
    for (TraceView.Sample s : v.samples()) {
      ArrayNode row = samples.addArray();
      ArrayNode live = row.addArray();
      for (Map.Entry<Integer, Long> e : new TreeMap<>(s.live()).entrySet()) {
        live.add(e.getKey()).add(e.getValue());
      }
      row.add(s.other()).add(s.cached());
    }
    v.highlight().ifPresentOrElse(h -> {
      ObjectNode x = o.putObject("highlight");
      x.put("verdict", h.verdict());
      x.put("index", h.index());
      x.put("x", h.x());
      x.put("fromX", h.fromX());
      x.put("message", h.message());
      h.requested().ifPresent(r -> x.put("requested", r));
      h.live().ifPresent(l -> x.put("live", l));
      h.missing().ifPresent(b -> x.put("missing", b));
    }, () -> o.putNull("highlight"));
    v.divergence().ifPresentOrElse(d -> {
      ObjectNode x = o.putObject("divergence");
      x.put("index", d.index());
      x.put("x", d.x());
      x.put("reason", d.reason());
    }, () -> o.putNull("divergence"));
    return o;
  }

  /** A resource of this package (the view's CSS and scripts), as text. */
  static String resource(String name) {
    try (InputStream in = HtmlPage.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
