package dev.interlock.model.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.OverlapAnswer;
import dev.interlock.model.check.OverlapQuery;
import dev.interlock.model.check.Schedules;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class ReplayerTest {
  /** Two roles taking two mutexes in opposite order: a lock-order deadlock. */
  static final String DEADLOCK = String.join("\n",
      "design lock-order",
      "vram 1GiB",
      "mutex a",
      "mutex b",
      "role left x1 jobs 1",
      "  lock a",
      "  lock b",
      "  unlock b",
      "  unlock a",
      "role right x1 jobs 1",
      "  lock b",
      "  lock a",
      "  unlock a",
      "  unlock b",
      "");

  static final Checker.Options OPTIONS = Checker.Options.defaults(1_000_000);

  static Design twoLock() {
    return TestDesigns.shipped("two-lock");
  }

  static Trace twoLockCounterexample() {
    CheckReport r = Checker.check(twoLock(), "designs/two-lock.design", OPTIONS);
    assertThat(r.verdict()).isInstanceOf(Verdict.Unsafe.class);
    return r.counterexample().orElseThrow();
  }

  static Trace withStep(Trace t, int index, UnaryOperator<TraceStep> edit) {
    List<TraceStep> steps = new ArrayList<>(t.steps());
    steps.set(index - 1, edit.apply(steps.get(index - 1)));
    return new Trace(t.design(), t.source(), t.params(), t.seed(), t.outcome(), steps);
  }

  static Trace truncated(Trace t, int length) {
    return new Trace(t.design(), t.source(), t.params(), t.seed(), t.outcome(), t.steps().subList(0, length));
  }

  static void assertDivergedAt(ReplayResult r, int index) {
    assertThat(r).isInstanceOf(ReplayResult.Diverged.class);
    assertThat(((ReplayResult.Diverged) r).index()).as("%s", r).isEqualTo(index);
    assertThat(((ReplayResult.Diverged) r).reason()).isNotBlank();
  }

  @Test
  void checkerCounterexampleReplaysConfirmed() throws TraceFormatException {
    Trace t = twoLockCounterexample();
    assertThat(t.length()).isEqualTo(9);
    // The checker ran with 3 workers; the trace records 2, and replay applies that to the design.
    assertThat(twoLock().role("gpu_worker").orElseThrow().threads()).isEqualTo(3);
    ReplayResult r = Replayer.replay(t, twoLock());
    assertThat(r).isEqualTo(new ReplayResult.Confirmed(9, t.outcome()));
    // And so does the same trace after a trip through the file format.
    assertThat(Replayer.replay(TraceFormat.parse("t", TraceFormat.print(t)), twoLock())).isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void changingAnyStepsTextDivergesThere() {
    Trace t = twoLockCounterexample();
    for (int i = 1; i <= t.length(); i++) {
      Trace bad = withStep(t, i, s -> new TraceStep(s.index(), s.thread(), TestDesigns.step("cpu bogus"), s.phase(), s.used(), s.cached()));
      assertDivergedAt(Replayer.replay(bad, twoLock()), i);
    }
  }

  @Test
  void changingAnyStepsPhaseDivergesThere() {
    Trace t = twoLockCounterexample();
    for (int i = 1; i <= t.length(); i++) {
      Trace bad = withStep(t, i, s -> new TraceStep(s.index(), s.thread(), s.step(), otherPhase(s.phase()), s.used(), s.cached()));
      assertDivergedAt(Replayer.replay(bad, twoLock()), i);
    }
  }

  private static Optional<Phase> otherPhase(Optional<Phase> p) {
    if (p.isEmpty()) {
      return Optional.of(Phase.BEGIN);
    }
    return p.get() == Phase.BEGIN ? Optional.of(Phase.END) : Optional.empty();
  }

  @Test
  void changingAnyStepsUsedOrCachedBytesDivergesThere() {
    Trace t = twoLockCounterexample();
    for (int i = 1; i <= t.length(); i++) {
      Trace used = withStep(t, i, s -> new TraceStep(s.index(), s.thread(), s.step(), s.phase(), s.used() + Sizes.GIB, s.cached()));
      assertDivergedAt(Replayer.replay(used, twoLock()), i);
      Trace cached = withStep(t, i, s -> new TraceStep(s.index(), s.thread(), s.step(), s.phase(), s.used() + 1, s.cached() + 1));
      assertDivergedAt(Replayer.replay(cached, twoLock()), i);
    }
  }

  @Test
  void changingAnyStepsThreadToOneThatDoesNotExistDivergesThere() {
    Trace t = twoLockCounterexample();
    for (int i = 1; i <= t.length(); i++) {
      // gpu_worker#2 would exist in the design file (x3) but not at the trace's 2 workers.
      Trace bad = withStep(t, i, s -> new TraceStep(s.index(), "gpu_worker#2", s.step(), s.phase(), s.used(), s.cached()));
      ReplayResult r = Replayer.replay(bad, twoLock());
      assertDivergedAt(r, i);
      assertThat(((ReplayResult.Diverged) r).reason()).contains("no thread gpu_worker#2");
    }
  }

  /**
   * Swapping a step to the other worker diverges at that step whenever the other worker's next
   * step differs; where both workers stand at the same step (symmetric prefix), the swapped step is
   * itself a valid transition and the trace diverges at the first later step that no longer fits.
   */
  @Test
  void changingAnyStepsThreadToTheOtherWorkerDiverges() {
    Trace t = twoLockCounterexample();
    Design d = t.params().applyTo(twoLock());
    int atTheStep = 0;
    int later = 0;
    for (int i = 1; i <= t.length(); i++) {
      TraceStep orig = t.steps().get(i - 1);
      String other = orig.thread().equals("gpu_worker#0") ? "gpu_worker#1" : "gpu_worker#0";
      Trace bad = withStep(t, i, s -> new TraceStep(s.index(), other, s.step(), s.phase(), s.used(), s.cached()));
      ReplayResult r = Replayer.replay(bad, twoLock());
      assertThat(r).isInstanceOf(ReplayResult.Diverged.class);
      int at = ((ReplayResult.Diverged) r).index();
      if (otherIsAtTheSameStep(d, t, i, other)) {
        assertThat(at).as("step %d swapped to %s: %s", i, other, r).isGreaterThan(i);
        later++;
      } else {
        assertThat(at).as("step %d swapped to %s: %s", i, other, r).isEqualTo(i);
        atTheStep++;
      }
    }
    // Both cases occur: the workers start alike (step 1) and stand apart at the OOM (step 9).
    assertThat(atTheStep).isPositive();
    assertThat(later).isPositive();
  }

  /** Whether, before step i of t, thread {@code other} is at the same step and phase as step i records. */
  private static boolean otherIsAtTheSameStep(Design d, Trace t, int i, String other) {
    Model m = new Model(d);
    long[] s = m.initial();
    long[] out = new long[s.length];
    for (int k = 1; k < i; k++) {
      assertThat(m.step(s, m.threadIndex(t.steps().get(k - 1).thread()), out)).isEqualTo(Model.MOVED);
      s = out.clone();
    }
    int o = m.threadIndex(other);
    Optional<Step> next = m.nextStep(s, o);
    TraceStep ts = t.steps().get(i - 1);
    return next.isPresent() && next.get().equals(ts.step()) && m.nextPhase(s, o).equals(ts.phase());
  }

  @Test
  void violationTraceCutShortDivergesAtItsEnd() {
    Trace t = twoLockCounterexample();
    for (int len = 0; len < t.length(); len++) {
      ReplayResult r = Replayer.replay(truncated(t, len), twoLock());
      assertDivergedAt(r, len + 1);
      assertThat(((ReplayResult.Diverged) r).reason()).contains("without the recorded OOM");
    }
  }

  @Test
  void traceGoingOnPastTheViolationDiverges() {
    Trace t = twoLockCounterexample();
    List<TraceStep> steps = new ArrayList<>(t.steps());
    TraceStep last = steps.get(steps.size() - 1);
    steps.add(new TraceStep(last.index() + 1, "gpu_worker#0", TestDesigns.step("lock compute_mtx"), Optional.empty(), last.used(), last.cached()));
    Trace longer = new Trace(t.design(), t.source(), t.params(), t.seed(), t.outcome(), steps);
    ReplayResult r = Replayer.replay(longer, twoLock());
    assertDivergedAt(r, 9);
    assertThat(((ReplayResult.Diverged) r).reason()).contains("fails here with OOM");
  }

  @Test
  void wrongViolationKindDiverges() {
    Trace t = twoLockCounterexample();
    Trace leak = new Trace(t.design(), t.source(), t.params(), t.seed(),
        new Outcome.Violated(new dev.interlock.model.state.Violation(ViolationKind.LEAK, "not what happened")), t.steps());
    assertDivergedAt(Replayer.replay(leak, twoLock()), 9);
  }

  @Test
  void completedTraceReplaysAndCutShortDivergesAtLengthPlusOne() {
    Design d = TestDesigns.shipped("single-lock");
    Trace t = Schedules.run(new Model(d), "designs/single-lock.design", Optional.of(1L), n -> n - 1);
    assertThat(t.outcome()).isInstanceOf(Outcome.Completed.class);
    assertThat(t.length()).isGreaterThan(10);
    assertThat(Replayer.replay(t, d)).isEqualTo(new ReplayResult.Confirmed(t.length(), new Outcome.Completed()));
    for (int len : new int[] {0, 1, t.length() / 2, t.length() - 1}) {
      ReplayResult r = Replayer.replay(truncated(t, len), d);
      assertDivergedAt(r, len + 1);
      assertThat(((ReplayResult.Diverged) r).reason()).contains("not every thread has finished");
    }
    // Any altered step of a long schedule diverges exactly there.
    for (int i = 1; i <= t.length(); i++) {
      Trace bad = withStep(t, i, s -> new TraceStep(s.index(), s.thread(), altered(s.step()), s.phase(), s.used(), s.cached()));
      assertDivergedAt(Replayer.replay(bad, d), i);
    }
  }

  @Test
  void stoppedPrefixReplaysConfirmedAtAnyLengthAndStillDivergesAtAnAlteredStep() throws TraceFormatException {
    Design d = TestDesigns.shipped("single-lock");
    Trace t = Schedules.run(new Model(d), "designs/single-lock.design", Optional.of(1L), n -> n - 1);
    Outcome.Stopped stop = new Outcome.Stopped("DIVERGES: the run went elsewhere");
    for (int len : new int[] {0, 1, t.length() / 2, t.length() - 1, t.length()}) {
      Trace prefix = new Trace(t.design(), t.source(), t.params(), t.seed(), stop, t.steps().subList(0, len));
      assertThat(Replayer.replay(prefix, d)).as("len %d", len).isEqualTo(new ReplayResult.Confirmed(len, stop));
      Trace back = TraceFormat.parse("stopped.trace", TraceFormat.print(prefix));
      assertThat(back).isEqualTo(prefix);
      assertThat(Replayer.replay(back, d)).isEqualTo(new ReplayResult.Confirmed(len, stop));
    }
    Trace prefix = new Trace(t.design(), t.source(), t.params(), t.seed(), stop, t.steps().subList(0, t.length() / 2));
    int i = t.length() / 4;
    Trace bad = withStep(prefix, i, s -> new TraceStep(s.index(), s.thread(), altered(s.step()), s.phase(), s.used(), s.cached()));
    assertDivergedAt(Replayer.replay(bad, d), i);
  }

  @Test
  void stoppedTraceEndingOnAFailingStepDiverges() {
    Trace t = twoLockCounterexample();
    Trace stopped = new Trace(t.design(), t.source(), t.params(), t.seed(), new Outcome.Stopped("the capture ended"), t.steps());
    ReplayResult r = Replayer.replay(stopped, twoLock());
    assertDivergedAt(r, t.length());
    assertThat(((ReplayResult.Diverged) r).reason()).contains("fails here with OOM");
  }

  /** The step with an "x" appended to its text, or to its buffer's name for an alloc (its text ends in a size). */
  private static Step altered(Step s) {
    return s instanceof Alloc a ? new Alloc(a.buffer() + "x", a.bytes(), a.async()) : TestDesigns.step(s.text() + "x");
  }

  @Test
  void overlapWitnessReplaysAndCutShortDiverges() {
    Design d = TestDesigns.shipped("single-lock");
    CheckReport r = Checker.check(d, "designs/single-lock.design", OPTIONS.withOverlap(new OverlapQuery("b_g2_msm", "ntt_msm")));
    Trace w = r.overlap().flatMap(OverlapAnswer::witness).orElseThrow();
    assertThat(Replayer.replay(w, d)).isInstanceOf(ReplayResult.Confirmed.class);
    assertDivergedAt(Replayer.replay(truncated(w, w.length() - 1), d), w.length());
  }

  @Test
  void deadlockCounterexampleReplaysConfirmed() throws TraceFormatException {
    Design d = TestDesigns.parse(DEADLOCK);
    CheckReport r = Checker.check(d, "lock-order.design", OPTIONS);
    assertThat(r.verdict().label()).isEqualTo("DEADLOCK");
    Trace t = r.counterexample().orElseThrow();
    assertThat(t.length()).isEqualTo(2);
    assertThat(t.steps()).extracting(s -> s.step().text()).containsExactlyInAnyOrder("lock a", "lock b");
    assertThat(Replayer.replay(t, d)).isEqualTo(new ReplayResult.Confirmed(2, t.outcome()));
    assertThat(Replayer.replay(TraceFormat.parse("t", TraceFormat.print(t)), d)).isInstanceOf(ReplayResult.Confirmed.class);
    // One transition short of the deadlock, somebody can still move.
    assertDivergedAt(Replayer.replay(truncated(t, 1), d), 2);
  }

  @Test
  void traceOfAnotherDesignDivergesBeforeTheFirstStep() {
    Trace t = twoLockCounterexample();
    assertDivergedAt(Replayer.replay(t, TestDesigns.shipped("single-lock")), 0);
    Trace otherRole = new Trace(t.design(), t.source(),
        new Parameters(t.params().vram(), java.util.Map.of("loader", 2), java.util.Map.of("loader", 2), java.util.Map.of()),
        t.seed(), t.outcome(), t.steps());
    ReplayResult r = Replayer.replay(otherRole, twoLock());
    assertDivergedAt(r, 0);
    assertThat(((ReplayResult.Diverged) r).reason()).contains("parameters do not fit");
  }

  @Test
  void parametersOfTheTraceDecideTheOutcome() {
    // The same 9 steps on a 32 GiB card do not run out of memory: replay must not confirm OOM.
    Trace t = twoLockCounterexample();
    Trace bigCard = new Trace(t.design(), t.source(),
        new Parameters(32 * Sizes.GIB, t.params().threads(), t.params().jobs(), t.params().permits()),
        t.seed(), t.outcome(), t.steps());
    ReplayResult r = Replayer.replay(bigCard, twoLock());
    assertDivergedAt(r, 9);
  }
}
