package dev.interlock.model.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Exploration;
import dev.interlock.model.check.Explorer;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.DesignPrinter;
import dev.interlock.model.step.Choose;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code choose / or / end}: parsed, printed, and both paths explored by the search and replayed. */
class ChooseTest {
  /** Only the second path allocates outside the lock: a search that took the first path alone would say SAFE. */
  static final String BUG_IN_SECOND = String.join("\n",
      "design bug-in-second",
      "vram 16GiB",
      "mutex compute_mtx",
      "role gpu_worker x2 jobs 1",
      "  choose",
      "    lock compute_mtx",
      "    alloc staged 12GiB",
      "  or",
      "    alloc staged 12GiB",
      "    lock compute_mtx",
      "  end",
      "  kernel ntt uses staged",
      "  free staged",
      "  unlock compute_mtx",
      "");

  static Design parse(String text) throws DesignException {
    return DesignParser.parse("t.design", text);
  }

  @Test
  void parsesIntoTwoPathsAndPrintsBack() throws Exception {
    Design d = parse(BUG_IN_SECOND);
    Choose c = (Choose) d.roles().get(0).body().get(0);
    assertThat(c.first()).hasSize(2);
    assertThat(c.second()).hasSize(2);
    assertThat(c.second().get(0).text()).isEqualTo("alloc staged 12GiB");
    assertThat(parse(DesignPrinter.print(d))).isEqualTo(d);
  }

  @Test
  void theSearchExploresTheSecondPath() throws Exception {
    Model m = new Model(parse(BUG_IN_SECOND));
    assertThat(m.moves()).isEqualTo(2 * m.threads());
    Exploration e = Explorer.explore(m, "t.design", Explorer.Options.firstViolation(100_000));
    assertThat(e.findings()).hasSize(1);
    assertThat(e.findings().get(0).violation().kind()).isEqualTo(ViolationKind.OOM);
    Trace t = e.findings().get(0).trace();
    assertThat(t.steps().get(0).phase()).contains(Phase.ELSE);
    assertThat(Replayer.replay(t, parse(BUG_IN_SECOND))).isInstanceOf(ReplayResult.Confirmed.class);
    assertThat(Replayer.replay(TraceFormat.parse("x.trace", TraceFormat.print(t)), parse(BUG_IN_SECOND)))
        .isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void withTheFirstPathAloneTheDesignIsSafe() throws Exception {
    String first = BUG_IN_SECOND.replace("  or\n    alloc staged 12GiB\n    lock compute_mtx\n", "  or\n    lock compute_mtx\n    alloc staged 12GiB\n");
    Exploration e = Explorer.explore(new Model(parse(first)), "t.design", Explorer.Options.firstViolation(100_000));
    assertThat(e.findings()).isEmpty();
    assertThat(e.exhaustive()).isTrue();
  }

  @Test
  void aMoveAboveTheThreadsExistsOnlyAtAChoose() throws Exception {
    Model m = new Model(parse(BUG_IN_SECOND));
    long[] s = m.initial();
    long[] out = new long[s.length];
    int t = 0;
    assertThat(m.step(s, t + m.threads(), out)).isEqualTo(Model.MOVED);
    assertThat(m.nextStep(out, t).orElseThrow().text()).isEqualTo("alloc staged 12GiB");
    assertThat(m.step(s, t, out)).isEqualTo(Model.MOVED);
    assertThat(m.nextStep(out, t).orElseThrow().text()).isEqualTo("lock compute_mtx");
    long[] after = out.clone();
    assertThat(m.step(after, t + m.threads(), out)).isEqualTo(Model.FINISHED);
    assertThat(m.nextPhase(s, t)).contains(Phase.THEN);
    assertThat(m.nextPhase(s, t + m.threads())).contains(Phase.ELSE);
    assertThat(m.moveOf(s, t, Optional.of(Phase.ELSE))).isEqualTo(t + m.threads());
    assertThat(m.moveOf(after, t, Optional.of(Phase.ELSE))).isEqualTo(t);
  }

  @Test
  void aDesignWithoutChooseHasOneMovePerThread() throws Exception {
    Model m = new Model(parse(BUG_IN_SECOND.replace("  choose\n", "").replace("  or\n", "").replace("  end\n", "")
        .replace("    alloc staged 12GiB\n    lock compute_mtx\n", "")));
    assertThat(m.moves()).isEqualTo(m.threads());
  }

  @Test
  void anEmptyPathAtTheEndOfTheBodyEndsTheJob() throws Exception {
    Design d = parse(String.join("\n", "design e", "vram 16GiB", "role w x1 jobs 2", "  alloc a 1GiB", "  free a",
        "  choose", "  or", "    alloc b 1GiB", "  end", ""));
    var r = Checker.check(d, "t.design", Checker.Options.defaults(100_000));
    assertThat(r.verdict().toString()).contains("LEAK");
  }

  @Test
  void misplacedLinesArePositionedErrors() {
    assertError(List.of("  or"), "t.design:5:3: 'or' without 'choose'");
    assertError(List.of("  choose", "  alloc a 1GiB", "  end"), "t.design:7:3: 'choose' at line 5 has no 'or'");
    assertError(List.of("  choose", "  or", "  or", "  end"), "t.design:7:3: second 'or' for the 'choose' at line 5");
    assertError(List.of("  choose", "  else", "  end"), "t.design:6:3: 'else' inside the 'choose' opened at line 5");
    assertError(List.of("  if free >= 1GiB", "  or", "  end"), "t.design:6:3: 'or' without 'choose' (the 'if' at line 5 takes else)");
    assertError(List.of("  choose", "  alloc a 1GiB", "  or"), "t.design:5:3: 'choose' without 'end'");
    assertError(List.of("  choose now"), "t.design:5:10: unexpected");
  }

  private static void assertError(List<String> body, String prefix) {
    String text = String.join("\n", "design e", "vram 16GiB", "mutex m", "role w x1 jobs 1") + "\n" + String.join("\n", body)
        + "\n";
    DesignException e = assertThrows(DesignException.class, () -> parse(text));
    assertThat(e.getMessage()).startsWith(prefix);
  }
}
