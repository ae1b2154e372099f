package dev.interlock.model.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ViolationKind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A SWALLOWED_OOM counterexample goes on with the failing job, names the steps that ran without the buffer, replays. */
class SwallowedTraceTest {
  static final String DESIGN = String.join("\n",
      "design swallow",
      "vram 16GiB",
      "mutex m",
      "role w x1 jobs 2",
      "  lock m",
      "  alloc a 12GiB",
      "  alloc t 8GiB async",
      "  on oom ignore",
      "  kernel msm uses a t",
      "  kernel tail uses a",
      "  free t",
      "  free a",
      "  unlock m",
      "");

  static Design design() throws Exception {
    return DesignParser.parse("swallow.design", DESIGN);
  }

  static Trace counterexample() throws Exception {
    CheckReport r = Checker.check(design(), "swallow.design", Checker.Options.defaults(100_000));
    return r.counterexample().orElseThrow();
  }

  @Test
  void theTraceEndsAtTheFailureAndGoesOnWithTheJob() throws Exception {
    Trace t = counterexample();
    assertThat(((Outcome.Violated) t.outcome()).violation().kind()).isEqualTo(ViolationKind.SWALLOWED_OOM);
    assertThat(t.length()).isEqualTo(3);
    assertThat(t.steps().get(2).phase()).contains(Phase.OOM);
    assertThat(t.after()).extracting(s -> s.step().text() + s.phase().map(p -> " " + p.label()).orElse(""))
        .containsExactly("kernel msm uses a t begin", "kernel msm uses a t end", "kernel tail uses a begin",
            "kernel tail uses a end", "free t", "free a", "unlock m");
    assertThat(t.after().get(0).without()).containsExactly("t");
    assertThat(t.after().get(1).without()).isEmpty(); // the end only waits: the launch is what took the buffers
    assertThat(t.after().get(2).without()).isEmpty();
    assertThat(t.after().get(4).used()).isEqualTo(12L << 30); // the free of a missing buffer frees nothing
  }

  @Test
  void theMessageNamesTheUsersOnEveryPathAfterTheFailureBothPathsOfAChooseIncluded() throws Exception {
    Design d = DesignParser.parse("swallow.design", DESIGN.replace("  kernel msm uses a t\n",
        "  choose\n  kernel first uses a\n  or\n  kernel second uses t\n  end\n"));
    CheckReport r = Checker.check(d, "swallow.design", Checker.Options.defaults(100_000));
    assertThat(r.counterexample().orElseThrow().outcome().toString())
        .contains("these steps run without it: w#0: kernel second uses t")
        .doesNotContain("kernel first");
  }

  @Test
  void theFormatKeepsTheStepsAfterAndReplaysThem() throws Exception {
    Trace t = counterexample();
    String text = TraceFormat.print(t);
    assertThat(text).contains("  +4  ").contains("kernel msm uses a t, without t");
    Trace back = TraceFormat.parse("x.trace", text);
    assertThat(back).isEqualTo(t);
    assertThat(Replayer.replay(back, design())).isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void aWrongWithoutDiverges() throws Exception {
    Trace t = counterexample();
    List<TraceStep> after = new java.util.ArrayList<>(t.after());
    TraceStep k = after.get(0);
    after.set(0, new TraceStep(k.index(), k.thread(), k.step(), k.phase(), k.used(), k.cached(), Optional.empty(), List.of("a")));
    Trace wrong = new Trace(t.design(), t.source(), t.params(), t.seed(), t.outcome(), t.steps(), after);
    ReplayResult r = Replayer.replay(wrong, design());
    assertThat(r).isInstanceOf(ReplayResult.Diverged.class);
    assertThat(r.toString()).contains("runs without [t] on the model");
  }

  @Test
  void anEngineRunThatGoesOnPastTheIgnoredFailureReplays() throws Exception {
    Trace t = counterexample();
    List<TraceStep> all = new java.util.ArrayList<>(t.steps());
    all.addAll(t.after()); // as an engine records it: one run, the failure in the middle
    Trace run = new Trace(t.design(), t.source(), t.params(), t.seed(), t.outcome(), all);
    assertThat(Replayer.replay(run, design())).isInstanceOf(ReplayResult.Confirmed.class);
  }
}
