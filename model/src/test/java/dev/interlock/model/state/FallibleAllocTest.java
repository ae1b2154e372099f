package dev.interlock.model.state;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.expect.ExpectLine;
import dev.interlock.model.expect.Expectation;
import dev.interlock.model.param.AnyChecker;
import dev.interlock.model.param.AnyReport;
import dev.interlock.model.param.ParamAnswer;
import dev.interlock.model.param.Parameterized;
import dev.interlock.model.trace.TraceStep;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The semantics of {@code on oom}: a handled failure is a branch (designs whose only failure is handled are SAFE), an
 * ignored one is SWALLOWED_OOM with the steps that run without the buffer, and the buffer it leaves missing is neither
 * live nor freed nor leaked; for each rule a design on which a wrong rule would give another verdict.
 */
class FallibleAllocTest {
  private static final Checker.Options OPTS = Checker.Options.defaults(2_000_000);

  /** Pre-staging outside the lock; when that fails, a smaller buffer under the lock. */
  static final String PRESTAGE = """
      design prestage-fallback
      vram 16GiB
      mutex gpu_mtx
      role gpu_worker x2 jobs 2
        alloc staged 10GiB          # pre-stage without the lock: fails while the other worker holds its 10GiB
        on oom
          lock gpu_mtx
          alloc staged 6GiB         # the fallback: 10 + 6 fit
          unlock gpu_mtx
        end
        kernel ntt uses staged
        free staged
      """;

  private static CheckReport check(String text) {
    return Checker.check(TestDesigns.parse(text), "<test>", OPTS);
  }

  private static CheckReport checkAll(Design d) {
    return Checker.check(d, "<test>", OPTS.withAllViolations());
  }

  @Test
  void aDesignWhoseOnlyFailureIsHandledIsSafe() {
    CheckReport r = check(PRESTAGE);
    assertThat(r.verdict()).isEqualTo(new Verdict.Safe());
    // the handler is really taken: treating its failure as OOM would make the same design unsafe
    CheckReport unhandled = check(PRESTAGE.replace("  on oom\n    lock gpu_mtx\n    alloc staged 6GiB         # the"
        + " fallback: 10 + 6 fit\n    unlock gpu_mtx\n  end\n", ""));
    assertThat(unhandled.verdict().label()).isEqualTo("OOM");
    assertThat(unhandled.counterexample().orElseThrow().length()).isEqualTo(2);
  }

  @Test
  void aHandlerCanStillFail() {
    // three workers: 10 + 6 are live when the third one's fallback asks for 6 more
    CheckReport r = Checker.check(TestDesigns.parse(PRESTAGE).withThreads("gpu_worker", 3), "<test>", OPTS);
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 3));
    List<TraceStep> steps = r.counterexample().orElseThrow().steps();
    TraceStep last = steps.get(steps.size() - 1);
    assertThat(last.step().text()).isEqualTo("alloc staged 6GiB");
    assertThat(steps).filteredOn(x -> x.phase().equals(Optional.of(Phase.OOM))).as("failures into the handler")
        .hasSizeGreaterThanOrEqualTo(2).allSatisfy(x -> assertThat(x.step().text()).isEqualTo("alloc staged 10GiB"));
  }

  @Test
  void aHandledFailureIsTracedWithPhaseOomAndTheBufferIsNotLive() {
    ModelDriver d = new ModelDriver(PRESTAGE);
    d.run(0, 1);
    assertThat(d.model.nextPhase(d.s, 1)).contains(Phase.OOM);
    assertThat(d.model.allocFails(d.s, 1)).isTrue();
    assertThat(d.model.nextPhase(d.s, 0)).as("thread 0 allocated: its kernel next").contains(Phase.BEGIN);
    long live = d.model.live(d.s);
    d.run(1, 1);
    assertThat(d.model.live(d.s)).isEqualTo(live);
    assertThat(d.model.view(d.s, 1).buffers()).doesNotContainKey("staged");
    assertThat(d.model.nextStep(d.s, 1).map(x -> x.text())).contains("lock gpu_mtx");
    d.run(1, 2);
    assertThat(d.model.live(d.s)).isEqualTo(16 * GIB);
    assertThat(d.model.nextStep(d.s, 1).map(x -> x.text())).as("after the handler, the step after the block")
        .contains("unlock gpu_mtx");
    d.run(1, 1);
    assertThat(d.model.nextStep(d.s, 1).map(x -> x.text())).contains("kernel ntt uses staged");
  }

  @Test
  void anEmptyHandlerGoesOnAfterTheBlock() {
    ModelDriver d = new ModelDriver("design e\nvram 4GiB\nrole w\n  alloc a 8GiB\n  on oom\n  end\n  cpu c\n");
    assertThat(d.model.nextPhase(d.s, 0)).contains(Phase.OOM);
    d.run(0, 1);
    assertThat(d.model.nextStep(d.s, 0).map(x -> x.text())).contains("cpu c");
    assertThat(check("design e\nvram 4GiB\nrole w\n  alloc a 8GiB\n  on oom\n  end\n  cpu c\n").verdict())
        .isEqualTo(new Verdict.Safe());
  }

  static final String IGNORED = """
      design ignored
      vram 16GiB
      role gpu_worker x2 jobs 1
        cpu synthesize
        alloc staged 10GiB
        on oom ignore
        kernel ntt uses staged
        if free >= 1GiB
          kernel msm uses staged
        end
        free staged
        kernel tail
      """;

  @Test
  void anIgnoredFailureIsSwallowedOomWithTheShortestTraceNamingTheStepsWithoutTheBuffer() {
    CheckReport r = check(IGNORED);
    assertThat(r.verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(r.verdict().exitStatus()).isEqualTo(1);
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 2));
    List<TraceStep> steps = r.counterexample().orElseThrow().steps();
    // cpu begin, cpu end, alloc for each worker: the second alloc is the violation
    assertThat(steps).hasSize(6);
    assertThat(steps.get(5).step().text()).isEqualTo("alloc staged 10GiB");
    String message = r.primary().orElseThrow().violation().message();
    assertThat(message).startsWith("gpu_worker#").contains("alloc staged 10GiB: 10GiB live + 10GiB requested > 16GiB vram")
        .contains("on oom ignore: the job goes on without staged, and these steps run without it: ")
        .contains(": kernel ntt uses staged, gpu_worker#").contains(": kernel msm uses staged")
        .doesNotContain("kernel tail");
    assertThat(r.others()).as("nothing else goes wrong: the missing buffer's free is no BAD_FREE, the job no LEAK")
        .isEmpty();
    assertThat(checkAll(TestDesigns.parse(IGNORED)).others()).isEmpty();
  }

  @Test
  void aMessageSaysWhenNoStepUsesTheMissingBuffer() {
    CheckReport r = check("design x\nvram 4GiB\nrole w\n  alloc a 8GiB\n  on oom ignore\n  free a\n  kernel k\n");
    assertThat(r.primary().orElseThrow().violation().message())
        .endsWith("on oom ignore: the job goes on without a, and no later step uses it");
    assertThat(r.counterexample().orElseThrow().length()).isEqualTo(1);
  }

  @Test
  void theMissingBuffersFreeDoesNothingAndItsJobLeaksNothing() {
    ModelDriver d = new ModelDriver("design x\nvram 16GiB\nrole w x2 jobs 2\n  alloc a 10GiB\n  on oom ignore\n"
        + "  kernel k uses a\n  free a\n");
    d.run(0, 1);
    assertThat(Model.violation(d.step(1))).isEqualTo(ViolationKind.SWALLOWED_OOM);
    assertThat(d.model.live(d.s)).isEqualTo(10 * GIB);
    assertThat(d.model.view(d.s, 1).buffers()).as("a missing buffer is not live").doesNotContainKey("a");
    assertThat(d.model.missingUses(d.s, 1)).containsExactly("a");
    assertThat(d.model.missingUses(d.s, 0)).isEmpty();
    d.run(1, 2); // the kernel runs without it: no USE_AFTER_FREE
    assertThat(d.model.nextStep(d.s, 1).map(x -> x.text())).contains("free a");
    d.run(1, 1); // no BAD_FREE, and no memory given back
    assertThat(d.model.live(d.s)).isEqualTo(10 * GIB);
    // the second job starts clean: its allocation fails again (worker 0 still holds 10GiB), its state as before
    assertThat(Model.violation(d.step(1))).isEqualTo(ViolationKind.SWALLOWED_OOM);
    d.run(1, 3);
    assertThat(d.model.allFinished(d.s)).isFalse();
    d.run(0, 3);
    assertThat(d.model.live(d.s)).isZero();
    d.run(0, 4);
    assertThat(d.model.allFinished(d.s)).isTrue();
    assertThat(d.model.live(d.s)).isZero();
  }

  @Test
  void aMissingBufferThatIsNeverFreedIsNoLeak() {
    // the only violation is the swallowed failure; a LEAK would show in the other kinds
    CheckReport r = checkAll(TestDesigns.parse("design x\nvram 4GiB\nrole w jobs 2\n  alloc a 8GiB\n  on oom ignore\n"
        + "  kernel k uses a\n"));
    assertThat(r.verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(r.others()).isEmpty();
    // an alloc of it again in the same job overwrites a null pointer: no LEAK either
    CheckReport twice = checkAll(TestDesigns.parse("design x\nvram 4GiB\nrole w\n  alloc a 8GiB\n  on oom ignore\n"
        + "  alloc a 2GiB\n  free a\n"));
    assertThat(twice.verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(twice.others()).isEmpty();
  }

  @Test
  void aKeptBufferWhoseFailureIsIgnoredIsMissingForTheRestOfTheRun() {
    ModelDriver d = new ModelDriver("design x\nvram 16GiB\nrole w jobs 2\n  alloc k0 20GiB keep\n  on oom ignore\n"
        + "  kernel k uses k0\n");
    assertThat(Model.violation(d.step(0))).isEqualTo(ViolationKind.SWALLOWED_OOM);
    assertThat(d.model.missingUses(d.s, 0)).containsExactly("k0");
    d.run(0, 2);
    // missing, not live: the next job allocates again (a live kept buffer would allocate nothing)
    assertThat(d.model.allocFails(d.s, 0)).isTrue();
    assertThat(Model.violation(d.step(0))).isEqualTo(ViolationKind.SWALLOWED_OOM);
    d.run(0, 2);
    assertThat(d.model.allFinished(d.s)).isTrue();
    assertThat(d.model.live(d.s)).isZero();
    CheckReport r = checkAll(TestDesigns.parse("design x\nvram 16GiB\nrole w jobs 2\n  alloc k0 20GiB keep\n"
        + "  on oom ignore\n  kernel k uses k0\n"));
    assertThat(r.verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(r.others()).isEmpty();
    assertThat(r.primary().orElseThrow().violation().message()).contains("these steps run without it: w#0: kernel k uses k0");
  }

  @Test
  void aTaskUsingAMissingJobBufferIsNamed() {
    String text = """
        design tasks
        vram 16GiB
        role w jobs 1
          alloc big 20GiB
          on oom ignore
          spawn t
          join t
          free big
        task t
          kernel msm uses big
        """;
    CheckReport r = check(text);
    assertThat(r.verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(r.primary().orElseThrow().violation().message()).endsWith("these steps run without it: w#0 task t: kernel msm uses big");
    ModelDriver d = new ModelDriver(text);
    assertThat(Model.violation(d.step(0))).isEqualTo(ViolationKind.SWALLOWED_OOM);
    d.run(0, 1);
    int task = -1;
    for (int t = 0; t < d.model.threads(); t++) {
      if (d.model.threadName(t).contains("/t@")) {
        task = t;
      }
    }
    assertThat(d.model.missingUses(d.s, task)).containsExactly("big");
    d.run(task, 2);
    d.run(0, 2);
    assertThat(d.model.allFinished(d.s)).isTrue();
    assertThat(checkAll(TestDesigns.parse(text)).others()).isEmpty();
  }

  @Test
  void anAsyncFailureIntoAHandlerLeavesThePoolAsTheDeviceDoes() {
    // measured (DeviceMemory.afterFailedAlloc): the pool grows to the whole free device, then releases down to its
    // threshold; with threshold max it keeps everything, so cudaMemGetInfo then reports nothing free
    String text = """
        design pool
        vram 16GiB
        pool threshold THRESHOLD
        role w
          alloc a 10GiB async
          alloc b 10GiB async
          on oom
            if free >= 1GiB
              cpu room
            else
              cpu none
            end
            alloc c 4GiB
            free c
          end
          free a
        """;
    ModelDriver max = new ModelDriver(text.replace("THRESHOLD", "max"));
    max.run(0, 1);
    assertThat(max.model.nextPhase(max.s, 0)).contains(Phase.OOM);
    max.run(0, 1);
    assertThat(max.model.cached(max.s)).isEqualTo(6 * GIB);
    assertThat(max.model.free(max.s)).isZero();
    assertThat(max.model.nextPhase(max.s, 0)).contains(Phase.ELSE);
    ModelDriver zero = new ModelDriver(text.replace("THRESHOLD", "0B"));
    zero.run(0, 2);
    assertThat(zero.model.cached(zero.s)).isZero();
    assertThat(zero.model.free(zero.s)).isEqualTo(6 * GIB);
    assertThat(zero.model.nextPhase(zero.s, 0)).contains(Phase.THEN);
    // the plain alloc in the handler releases the settled cache and fits: both are SAFE
    assertThat(check(text.replace("THRESHOLD", "max")).verdict()).isEqualTo(new Verdict.Safe());
    assertThat(check(text.replace("THRESHOLD", "0B")).verdict()).isEqualTo(new Verdict.Safe());
    max.run(0, 3);
    assertThat(max.model.nextStep(max.s, 0).map(x -> x.text())).contains("alloc c 4GiB");
    max.run(0, 1);
    assertThat(max.model.cached(max.s)).isZero();
    assertThat(max.model.live(max.s)).isEqualTo(14 * GIB);
  }

  @Test
  void threadsAnyDecidesIgnoredFailuresLikeOom() {
    Design d = TestDesigns.parse("""
        design any-ignore
        vram 16GiB
        role w x1 jobs 1
          alloc a 6GiB
          on oom ignore
          kernel k uses a
          free a
        """);
    AnyReport r = AnyChecker.check(d, List.of("w"), 2, "<test>", OPTS, Parameterized.Limits.defaults());
    assertThat(r.answer()).isInstanceOf(ParamAnswer.Decided.class);
    assertThat(((ParamAnswer.Decided) r.answer()).minimal().get(ViolationKind.SWALLOWED_OOM)).contains(Map.of("w", 3));
    assertThat(((ParamAnswer.Decided) r.answer()).minimal().get(ViolationKind.OOM)).isEmpty();
    assertThat(r.verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("w", 3));
    assertThat(r.safeForAllN()).doesNotContain(ViolationKind.SWALLOWED_OOM).contains(ViolationKind.OOM);
    // the bounded search agrees at 3 workers
    assertThat(Checker.check(d.withThreads("w", 3), "<test>", OPTS).verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(Checker.check(d.withThreads("w", 2), "<test>", OPTS).verdict()).isEqualTo(new Verdict.Safe());
  }

  @Test
  void threadsAnyOnAHandledFailureIsUndecidedWithTheReasonAndTheBoundedSearchGoesOnToTheOom() {
    Design d = TestDesigns.parse(PRESTAGE);
    AnyReport r = AnyChecker.check(d, List.of("gpu_worker"), 2, "<test>", OPTS, Parameterized.Limits.defaults());
    assertThat(r.answer()).isInstanceOf(ParamAnswer.Unknown.class);
    assertThat(((ParamAnswer.Unknown) r.answer()).reason()).contains("'alloc staged 10GiB' handles its failure (on oom)")
        .contains("downward-closed");
    // past the bound of 2: the third worker's fallback 6GiB beside one worker's 10GiB and another's 6GiB
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.report().threads()).isEqualTo(Map.of("gpu_worker", 3));
    AnyReport within = AnyChecker.check(d, List.of("gpu_worker"), 2, "<test>", Checker.Options.defaults(100),
        Parameterized.Limits.defaults());
    // 84 states at 2 workers; the search at 3 passes 100 before its OOM
    assertThat(within.verdict()).as("no room to go on past 2").isInstanceOf(Verdict.Unknown.class);
    assertThat(within.verdict().exitStatus()).isEqualTo(2);
  }

  @Test
  void theExpectLineNamesSwallowedOom() throws Exception {
    String text = "# expect: SWALLOWED_OOM threads=gpu_worker:2 length=6\n" + IGNORED;
    Design d = TestDesigns.parse(text);
    Expectation e = ExpectLine.expectation("f.design", text, d);
    assertThat(e.verdict()).isEqualTo("SWALLOWED_OOM");
    assertThat(e.mismatches(check(text))).isEmpty();
    Expectation wrong = ExpectLine.expectation("f.design", text.replace("SWALLOWED_OOM", "OOM"), d);
    assertThat(wrong.mismatches(check(text))).isNotEmpty();
    Expectation safe = ExpectLine.expectation("f.design", "# expect: SAFE\n" + PRESTAGE, TestDesigns.parse(PRESTAGE));
    assertThat(safe.mismatches(check(PRESTAGE))).isEmpty();
  }
}
