package dev.interlock.view.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceRecorder;
import dev.interlock.model.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The view model against the model: lanes, holds, memory per buffer, the violation's numbers, divergence. */
class TraceViewsTest {
  private static final long GIB = Sizes.GIB;

  static Trace trace(String name) throws Exception {
    return TraceFormat.read(TestDesigns.root().resolve("traces").resolve(name));
  }

  static TraceView twoLock() throws Exception {
    return TraceViews.ofTrace("counterexample", trace("two-lock.oom.trace"), TestDesigns.shipped("two-lock"));
  }

  @Test
  void lanesMarksAndBoxesOfTheTwoLockCounterexample() throws Exception {
    TraceView v = twoLock();
    assertThat(v.lanes()).extracting(TraceView.Lane::thread).containsExactly("gpu_worker#0", "gpu_worker#1");
    assertThat(v.marks()).hasSize(9);
    assertThat(v.marks()).extracting(TraceView.Mark::x).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(v.marks().get(8).failed()).isTrue();
    assertThat(v.marks().subList(0, 8)).noneMatch(TraceView.Mark::failed);
    assertThat(v.boxes()).containsExactly(new TraceView.Box(0, "synthesize", false, 1, 2, false),
        new TraceView.Box(1, "synthesize", false, 6, 7, false));
    assertThat(v.divergence()).isEmpty();
  }

  @Test
  void holdsComeFromTheModelsViewOfEachThread() throws Exception {
    TraceView v = twoLock();
    assertThat(v.locks()).containsExactly("mem_mtx", "compute_mtx");
    assertThat(v.holds()).containsExactly(new TraceView.Hold(0, "gpu_worker#0", 1, 3, 5, false),
        new TraceView.Hold(0, "gpu_worker#1", 1, 8, 9, true));
  }

  @Test
  void memoryStackMatchesTheModelAfterEveryTransition() throws Exception {
    Trace t = trace("two-lock.oom.trace");
    TraceView v = twoLock();
    Design d = t.params().applyTo(TestDesigns.shipped("two-lock"));
    Model model = new Model(d);
    long[] s = model.initial();
    long[] out = new long[s.length];
    for (TraceStep ts : t.steps().subList(0, t.length() - 1)) {
      assertThat(model.step(s, model.threadIndex(ts.thread()), out)).isEqualTo(Model.MOVED);
      TraceView.Sample sample = v.samples().get(ts.index() - 1);
      assertThat(sample.liveTotal()).as("live after %d", ts.index()).isEqualTo(model.live(out));
      assertThat(sample.other()).isZero();
      assertThat(sample.cached()).isEqualTo(model.cached(out));
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    assertThat(v.series()).containsExactly(new TraceView.Series("gpu_worker#0", "staged", "gpu_worker#0.staged", false));
    assertThat(v.samples().get(2).live()).isEmpty();
    assertThat(v.samples().get(3).live()).isEqualTo(Map.of(0, 12 * GIB));
    // the failing transition shows the live bytes before it: the request is drawn on top of them
    assertThat(v.samples().get(8).live()).isEqualTo(Map.of(0, 12 * GIB));
  }

  @Test
  void theViolationCarriesTheModelsNumbers() throws Exception {
    TraceView.Highlight h = twoLock().highlight().orElseThrow();
    assertThat(h.verdict()).isEqualTo("OOM");
    assertThat(h.index()).isEqualTo(9);
    assertThat(h.requested()).contains(12 * GIB);
    assertThat(h.live()).contains(12 * GIB);
    assertThat(h.free()).contains(4 * GIB);
    assertThat(h.liveBuffers()).containsExactly("gpu_worker#0.staged=12GiB");
    assertThat(h.message()).startsWith("gpu_worker#1 alloc staged 12GiB: 12GiB live + 12GiB requested > 16GiB vram");
  }

  /**
   * A task allocates b in two jobs of one worker at once: job 1's b is still live when job 2's task asks for its own.
   * The page names the live buffers as the model's message does ({@code w#0@1.b}), the memory stack has one series per
   * job's b, and no byte is unattributed.
   */
  @Test
  void buffersOfTwoJobsOfATaskAreNamedAsTheModelNamesThem() {
    Design d = TestDesigns.parse("""
        design two-jobs
        vram 2560MiB
        task t
          alloc b 1GiB
          cpu x
          free b
        role w x1 jobs 3
          spawn t
        """);
    Model model = new Model(d);
    TraceRecorder rec = new TraceRecorder(model);
    long[] s = model.initial();
    long[] out = new long[s.length];
    Violation failure = null;
    // w#0 spawns t in jobs 1, 2 and 3; each task allocates its b; the third does not fit beside the first two
    for (String thread : List.of("w#0", "w#0/t@1", "w#0", "w#0/t@2", "w#0", "w#0/t@3")) {
      int t = model.threadIndex(thread);
      assertThat(t).as(thread).isNotNegative();
      int code = model.step(s, t, out);
      rec.record(s, t, out);
      ViolationKind kind = Model.violation(code);
      if (kind != null) {
        failure = new Violation(kind, model.explain(s, t, kind));
        break;
      }
      assertThat(code).as(thread).isEqualTo(Model.MOVED);
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    assertThat(failure).isNotNull();
    Trace trace = rec.finish("designs/two-jobs.design", Optional.empty(), new Outcome.Violated(failure));
    TraceView v = TraceViews.ofTrace("two jobs", trace, d);
    TraceView.Highlight h = v.highlight().orElseThrow();
    assertThat(h.verdict()).isEqualTo("OOM");
    String named = h.message().substring(h.message().indexOf("(live: ") + 7, h.message().lastIndexOf(')'));
    assertThat(named).isEqualTo("w#0@1.b=1GiB, w#0@2.b=1GiB");
    assertThat(String.join(", ", h.liveBuffers())).isEqualTo(named);
    assertThat(HtmlPage.render("two jobs", List.of(v))).contains("live before transition 6: " + named + "</p>");
    assertThat(v.series()).extracting(TraceView.Series::label).containsExactly("w#0@1.b", "w#0@2.b");
    assertThat(v.samples()).allMatch(x -> x.other() == 0);
    assertThat(v.samples().get(3).live()).isEqualTo(Map.of(0, GIB, 1, GIB));
  }

  @Test
  void marksCarryTheCategoryOfTheirStepsType() throws Exception {
    assertThat(twoLock().marks()).extracting(TraceView.Mark::category).containsExactly(StepCategory.INTERVAL,
        StepCategory.INTERVAL, StepCategory.LOCK, StepCategory.MEMORY, StepCategory.LOCK, StepCategory.INTERVAL,
        StepCategory.INTERVAL, StepCategory.LOCK, StepCategory.MEMORY);
    assertThat(StepCategory.of(TestDesigns.step("sync stream"))).isEqualTo(StepCategory.MEMORY);
    assertThat(StepCategory.of(TestDesigns.step("spawn t"))).isEqualTo(StepCategory.TASK);
    assertThat(StepCategory.of(TestDesigns.step("kernel k uses a"))).isEqualTo(StepCategory.INTERVAL);
    // a step whose text starts like another kind's is categorised by its type: 'release' is a lock step, 'free' memory
    assertThat(StepCategory.of(TestDesigns.step("release s 1"))).isEqualTo(StepCategory.LOCK);
    String html = HtmlPage.render("two-lock", List.of(twoLock()));
    assertThat(html).contains("\"lock mem_mtx\",\"\",0,0,0," + StepCategory.LOCK.ordinal() + ",\"\",[],0]")
        .contains("\"categories\":[\"lock\",\"memory\",\"interval\",\"task\",\"branch\",\"choice\"]");
    assertThat(StepCategory.of(TestDesigns.parse(String.join("\n", "design c", "vram 1GiB", "role r x1 jobs 1",
        "  choose", "  sync", "  or", "  trim", "  end", "")).roles().get(0).body().get(0))).isEqualTo(StepCategory.CHOICE);
  }

  @Test
  void aTaskThreadsLaneNamesItsRoleThread() {
    TraceView.Lane task = new TraceView.Lane("w#0/t@2", "w#0");
    assertThat(task.task()).isTrue();
    assertThat(new TraceView.Lane("w#0", "w#0").task()).isFalse();
  }

  @Test
  void anOverlapWitnessShowsItsOverlap() throws Exception {
    TraceView v = TraceViews.ofTrace("witness", trace("single-lock.overlap.trace"), TestDesigns.shipped("single-lock"));
    TraceView.Highlight h = v.highlight().orElseThrow();
    assertThat(h.verdict()).isEqualTo("OVERLAP");
    assertThat(h.index()).isEqualTo(17);
    assertThat(h.fromX()).isEqualTo(17);
    assertThat(h.message()).contains("gpu_worker#0 in b_g2_msm").contains("gpu_worker#1 in ntt_msm");
    assertThat(v.boxes()).filteredOn(TraceView.Box::open).extracting(TraceView.Box::name).containsExactlyInAnyOrder("b_g2_msm", "ntt_msm");
  }

  @Test
  void aTraceTheModelCannotFollowStillRendersEveryMark() throws Exception {
    Trace t = trace("two-lock.oom.trace");
    List<TraceStep> steps = new ArrayList<>(t.steps());
    TraceStep fifth = steps.get(4);
    // gpu_worker#0 skips its unlock: gpu_worker#1's lock at 8 is blocked in the model
    steps.remove(4);
    List<TraceStep> renumbered = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      TraceStep s = steps.get(i);
      renumbered.add(new TraceStep(i + 1, s.thread(), s.step(), s.phase(), s.used(), s.cached(), s.free()));
    }
    Trace bad = new Trace(t.design(), t.source(), t.params(), t.seed(), t.outcome(), renumbered);
    TraceView v = TraceViews.ofTrace("diverging", bad, TestDesigns.shipped("two-lock"));
    assertThat(fifth.step().text()).isEqualTo("unlock mem_mtx");
    assertThat(v.marks()).hasSize(8);
    TraceView.Divergence d = v.divergence().orElseThrow();
    assertThat(d.index()).isEqualTo(7);
    assertThat(d.reason()).contains("blocked");
    // after the divergence the recorded bytes are kept, unattributed
    assertThat(v.samples().get(7).live()).isEmpty();
    assertThat(v.samples().get(7).other()).isEqualTo(12 * GIB);
    String html = HtmlPage.render("diverging", List.of(v));
    assertThat(html).contains("the model could not follow from transition 7");
  }

  @Test
  void aRunThatFailsOnTheEngineRendersOnATimeAxis() {
    Design d = TestDesigns.shipped("two-lock").withThreads("gpu_worker", 2);
    RunReport r;
    try (SimulatedDevice dev = new SimulatedDevice(d.vram())) {
      r = new Engine(dev, StepGate.FREE).run(d, "designs/two-lock.design", InterpretedPipeline::new);
    }
    TraceView v = TraceViews.ofRun("run", d, "designs/two-lock.design", r, TraceView.Axis.TIME);
    assertThat(v.axis()).isEqualTo(TraceView.Axis.TIME);
    assertThat(v.marks()).hasSize(r.events().size());
    for (int i = 1; i < v.marks().size(); i++) {
      assertThat(v.marks().get(i).x()).isGreaterThanOrEqualTo(v.marks().get(i - 1).x());
    }
    // whether this free run hit OOM depends on its interleaving; either way the page names the outcome
    if (r.failed() > 0) {
      assertThat(v.highlight()).map(TraceView.Highlight::verdict).contains("OOM");
      assertThat(v.marks()).anyMatch(TraceView.Mark::failed);
    } else {
      assertThat(v.highlight()).isEmpty();
    }
    assertThat(HtmlPage.render("run", List.of(v))).contains("id=\"verdict-0\"");
  }

  @Test
  void thePageIsSelfContained() throws Exception {
    String html = HtmlPage.render("two-lock", List.of(twoLock()));
    assertThat(html).doesNotContainIgnoringCase("http:").doesNotContainIgnoringCase("https:")
        .doesNotContain("src=").doesNotContain("href=").doesNotContain("@import").doesNotContain("url(");
    assertThat(html).contains("<p class=\"verdict bad\" id=\"verdict-0\">OOM at transition 9: gpu_worker#1 alloc staged 12GiB: "
        + "12GiB live + 12GiB requested &gt; 16GiB vram");
    assertThat(html).contains("requested 12GiB \u00b7 live 12GiB \u00b7 free 4GiB \u00b7 vram 16GiB");
    assertThat(html).contains("live before transition 9: gpu_worker#0.staged=12GiB");
  }

  @Test
  void textInTheDataCannotCloseTheScript() {
    Design d = TestDesigns.parse("design x\nvram 1GiB\nrole w x1 jobs 1\n  cpu a\n");
    Trace t = new Trace("x", "designs/x.design", dev.interlock.model.trace.Parameters.of(d), Optional.empty(),
        new dev.interlock.model.trace.Outcome.Completed(), List.of());
    String html = HtmlPage.render("</script><b>", List.of(TraceViews.ofTrace("</script>", t, d)));
    assertThat(html).doesNotContain("</script><b>").contains("&lt;/script&gt;");
  }
}
