package dev.interlock.view.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Phase;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Failed allocations whose {@code on oom} took over, a {@code choose}'s path, and the steps a swallowed failure's job ran
 * without the buffer, in the view model and the page's data.
 */
class OomViewTest {
  /** One thread: a choice (the second path is shorter, so the counterexample takes it), a handled and an ignored failure. */
  static final String DESIGN = String.join("\n",
      "design oomview",
      "vram 4GiB",
      "role w x1 jobs 1",
      "  choose",
      "  cpu a",
      "  cpu a2",
      "  or",
      "  cpu b",
      "  end",
      "  alloc big 6GiB",
      "  on oom",
      "  cpu fallback",
      "  else",
      "  free big",
      "  end",
      "  alloc t 5GiB async",
      "  on oom ignore",
      "  kernel k uses t",
      "  free t",
      "");

  static Design design() {
    return TestDesigns.parse(DESIGN);
  }

  static Trace counterexample() {
    return Checker.check(design(), "oomview.design", Checker.Options.defaults(100_000)).counterexample().orElseThrow();
  }

  static TraceView.Mark mark(TraceView v, String step, String phase) {
    return v.marks().stream().filter(m -> m.step().equals(step) && m.phase().equals(phase)).findFirst().orElseThrow();
  }

  @Test
  void theChoicesPathTheHandledAndTheIgnoredFailureAndTheKernelWithoutItsBuffer() {
    Trace t = counterexample();
    TraceView v = TraceViews.ofTrace("counterexample", t, design());
    assertThat(v.divergence()).isEmpty();
    TraceView.Mark choose = v.marks().get(0);
    assertThat(choose.category()).isEqualTo(StepCategory.CHOICE);
    assertThat(choose.phase()).isEqualTo("else"); // the second path, which the model took too: no divergence
    assertThat(v.marks()).extracting(TraceView.Mark::step).contains("cpu b").doesNotContain("cpu a");

    TraceView.Mark big = mark(v, "alloc big 6GiB", "oom");
    assertThat(big.oom()).isEqualTo(TraceView.Oom.HANDLED);
    assertThat(big.failed()).isFalse(); // a handled failure is no violation
    TraceView.Mark small = mark(v, "alloc t 5GiB async", "oom");
    assertThat(small.oom()).isEqualTo(TraceView.Oom.IGNORED);
    assertThat(small.failed()).isTrue();
    assertThat(small.index()).isEqualTo(t.length());
    assertThat(v.marks()).filteredOn(m -> m.oom() != TraceView.Oom.NONE).hasSize(2);

    // after the violation the job goes on; its kernel ran without t, in the mark and the box
    TraceView.Mark k = mark(v, "kernel k uses t", "begin");
    assertThat(k.after()).isTrue();
    assertThat(k.index()).isGreaterThan(t.length());
    assertThat(k.without()).containsExactly("t");
    assertThat(mark(v, "kernel k uses t", "end").without()).isEmpty();
    assertThat(v.marks()).filteredOn(m -> !m.without().isEmpty()).hasSize(1);
    assertThat(v.boxes()).filteredOn(TraceView.Box::kernel).singleElement()
        .satisfies(b -> assertThat(b.without()).containsExactly("t"));
    assertThat(v.boxes()).filteredOn(b -> !b.kernel()).allMatch(b -> b.without().isEmpty());

    TraceView.Highlight h = v.highlight().orElseThrow();
    assertThat(h.verdict()).isEqualTo("SWALLOWED_OOM");
    assertThat(h.index()).isEqualTo(t.length());
    assertThat(h.requested()).contains(5 * Sizes.GIB);
    assertThat(h.missing()).contains("t");
    assertThat(h.runWithout()).containsExactly("w#0: kernel k uses t");
  }

  @Test
  void thePageSaysWhichStepsRanWithoutTheBufferAndCarriesTheMarksKinds() throws Exception {
    TraceView v = TraceViews.ofTrace("counterexample", counterexample(), design());
    String html = HtmlPage.render("oomview", List.of(v));
    int k = mark(v, "kernel k uses t", "begin").index();
    assertThat(html).contains("<p class=\"without\" id=\"without-0\">on oom ignore: the job goes on without t; these steps "
        + "run without it: w#0: kernel k uses t (#" + k + ", marked in their lanes)</p>");
    JsonNode view = data(html).get("views").get(0);
    assertThat(view.get("categories").toString()).isEqualTo("[\"lock\",\"memory\",\"interval\",\"task\",\"branch\",\"choice\"]");
    List<String> ooms = new ArrayList<>();
    view.get("marks").forEach(m -> ooms.add(m.get(9).asText()));
    assertThat(ooms).filteredOn(s -> !s.isEmpty()).containsExactly("handled", "ignored");
    JsonNode kernel = view.get("marks").get(k - 1);
    assertThat(kernel.get(3).asText()).isEqualTo("kernel k uses t");
    assertThat(kernel.get(10).toString()).isEqualTo("[\"t\"]");
    assertThat(kernel.get(11).asInt()).isEqualTo(1);
    assertThat(view.get("highlight").get("missing").asText()).isEqualTo("t");
  }

  @Test
  void whereTheModelCannotFollowTheDesignSaysWhatTheOnOomDoesAndTheTraceWhatRanWithout() {
    Trace t = counterexample();
    // the first transition's device bytes are wrong: the model stops following at once
    List<TraceStep> steps = new ArrayList<>(t.steps());
    TraceStep first = steps.get(0);
    steps.set(0, new TraceStep(1, first.thread(), first.step(), first.phase(), first.used() + Sizes.GIB,
        first.cached(), first.free()));
    Trace wrong = new Trace(t.design(), t.source(), t.params(), t.seed(), t.outcome(), steps, t.after());
    TraceView v = TraceViews.ofTrace("counterexample", wrong, design());
    assertThat(v.divergence()).isPresent();
    assertThat(mark(v, "alloc big 6GiB", "oom").oom()).isEqualTo(TraceView.Oom.HANDLED);
    assertThat(mark(v, "alloc t 5GiB async", "oom").oom()).isEqualTo(TraceView.Oom.IGNORED);
    assertThat(mark(v, "kernel k uses t", "begin").without()).containsExactly("t"); // as the trace recorded it
  }

  @Test
  void anAllocationTheDesignWritesWithBothOnOomsIsUnknownWhereTheModelCannotSay() {
    Design d = TestDesigns.parse(String.join("\n", "design two", "vram 4GiB", "role w x1 jobs 1",
        "  alloc x 6GiB", "  on oom ignore", "  alloc x 6GiB", "  on oom", "  end", ""));
    Trace t = Checker.check(d, "two.design", Checker.Options.defaults(10_000)).counterexample().orElseThrow();
    TraceView followed = TraceViews.ofTrace("c", t, d);
    assertThat(followed.marks().get(0).oom()).isEqualTo(TraceView.Oom.IGNORED); // the model knows which one ran
    List<TraceStep> steps = new ArrayList<>(t.steps());
    TraceStep first = steps.get(0);
    steps.set(0, new TraceStep(1, first.thread(), first.step(), Optional.of(Phase.OOM), first.used() + Sizes.GIB,
        first.cached(), first.free()));
    TraceView lost = TraceViews.ofTrace("c", new Trace(t.design(), t.source(), t.params(), t.seed(), t.outcome(), steps,
        t.after()), d);
    assertThat(lost.marks().get(0).oom()).isEqualTo(TraceView.Oom.UNKNOWN);
  }

  /**
   * An engine run past ignored failures: the model follows it, and each kernel that ran without d_temp is marked. At
   * 16GiB whether a d_temp fails depends on the interleaving the free run took (each run is checked whichever it was);
   * one worker alone at 10GiB always fails its d_temp, whatever the timing.
   */
  @Test
  void aRunThatGoesOnPastAnIgnoredFailureIsFollowedAndMarked() {
    Design d = TestDesigns.shipped("oom-ignore");
    for (int run = 0; run < 5; run++) {
      oneRun(d);
    }
    assertThat(oneRun(d.withThreads("gpu_worker", 1).withVram(10 * Sizes.GIB))).as("3 + 8 GiB never fit in 10")
        .isEqualTo(1);
  }

  /** Checks one free run's view; returns how many allocations failed and were ignored in it. */
  private static int oneRun(Design d) {
    RunReport r;
    try (SimulatedDevice dev = new SimulatedDevice(d.vram())) {
      r = new Engine(dev, StepGate.FREE).run(d, "designs/oom-ignore.design", InterpretedPipeline::new);
    }
    TraceView v = TraceViews.ofRun("run", d, "designs/oom-ignore.design", r, TraceView.Axis.TRANSITION);
    assertThat(v.divergence()).isEmpty();
    assertThat(v.marks()).hasSize(r.events().size());
    List<TraceView.Mark> ignored = v.marks().stream().filter(m -> m.oom() == TraceView.Oom.IGNORED).toList();
    List<TraceView.Mark> without = v.marks().stream().filter(m -> !m.without().isEmpty()).toList();
    // whichever interleaving ran, each failed d_temp is followed by its kernel without it
    assertThat(without).hasSameSizeAs(ignored);
    assertThat(without).allSatisfy(m -> assertThat(m.without()).containsExactly("d_temp"));
    if (!ignored.isEmpty()) {
      assertThat(v.highlight().orElseThrow().verdict()).isEqualTo("SWALLOWED_OOM");
      assertThat(v.highlight().orElseThrow().index()).isEqualTo(ignored.get(0).index());
    }
    return ignored.size();
  }

  static JsonNode data(String html) throws Exception {
    Matcher m = Pattern.compile("<script type=\"application/json\" id=\"interlock-data\">(.*?)</script>", Pattern.DOTALL)
        .matcher(html);
    assertThat(m.find()).isTrue();
    return new ObjectMapper().readTree(m.group(1).replace("<\\/", "</"));
  }
}
