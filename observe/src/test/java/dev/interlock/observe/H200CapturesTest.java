package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The real H200 captures of the native test engine (gpu/NOTES.md run 30) validated against their designs. */
class H200CapturesTest {
  private static final String DIR = "observe/src/test/resources/h200/";

  static Mapping ignoreMain() throws CaptureFormatException {
    return Mapping.parse("test.map", "ignore thread main\n");
  }

  static Capture capture(String name) throws CaptureFormatException {
    return CaptureFormat.read(Path.of(DIR + name + ".capture"));
  }

  static Validation validate(String designFile, String captureName) throws CaptureFormatException {
    Design d = Runs.design(designFile);
    Validation v = Validator.validate(d, designFile, Runs.text(designFile), capture(captureName), ignoreMain());
    System.out.println("[interlock] validate " + designFile + " " + captureName + ": " + v.summary());
    return v;
  }

  @Test
  void twoLockRunsConformUpToTheirRealOom() throws Exception {
    for (String c : new String[] {"two-lock-1", "two-lock-4"}) {
      Validation v = validate("designs/two-lock.design", c);
      assertThat(v).as(c).isInstanceOf(Validation.Conforms.class);
      assertThat(((Validation.Conforms) v).oomLine()).as(c).isEqualTo(firstFailedAlloc(capture(c)));
      assertThat(v.summary()).as(c).contains("ran out of memory");
    }
  }

  @Test
  void twoLockRunIsAModelTraceEndingInTheRealOom() throws Exception {
    String designFile = "designs/two-lock.design";
    Design d = Runs.design(designFile);
    Validator.Validated run = Validator.validateRun(d, designFile, Runs.text(designFile), capture("two-lock-1"), ignoreMain());
    Validation.Conforms v = (Validation.Conforms) run.validation();
    Trace t = run.trace();
    System.out.println("[interlock] two-lock-1: " + v.matched() + " matched events, " + t.length() + " transitions");
    assertThat(t.outcome()).isInstanceOfSatisfying(Outcome.Violated.class,
        o -> assertThat(o.violation().kind()).isEqualTo(ViolationKind.OOM));
    assertThat(t.steps().get(t.length() - 1).step()).isInstanceOf(dev.interlock.model.step.Alloc.class);
    // every step of two-lock shows in the capture: one transition per matched event
    assertThat(t.length()).isEqualTo(v.matched());
    assertThat(Replayer.replay(t, d)).isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void singleLockConforms() throws Exception {
    Validation v = validate("designs/single-lock.design", "single-lock");
    assertThat(v).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) v).oomLine()).isZero();
    assertThat(((Validation.Conforms) v).threads()).isEqualTo(3);
  }

  @Test
  void phase9GuardedConforms() throws Exception {
    Validation v = validate("capture/testengine/designs/phase9-guarded.design", "phase9-guarded");
    assertThat(v).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) v).oomLine()).isZero();
  }

  @Test
  void reservationConforms() throws Exception {
    Validation v = validate("designs/reservation.design", "reservation");
    assertThat(v).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) v).oomLine()).isZero();
  }

  @Test
  void bugDivergesAtItsFirstAllocationOutsideComputeMtx() throws Exception {
    Validation v = validate("designs/single-lock.design", "bug");
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    Validation.Diverges d = (Validation.Diverges) v;
    assertThat(d.line()).isEqualTo(firstAllocOutside(capture("bug"), "compute_mtx"));
    assertThat(d.message()).contains("not holding compute_mtx");
  }

  /** The design inferred from a capture (main left out, a 16 GiB card), checked, after it validates against that capture. */
  static CheckReport inferAndCheck(String captureName) throws Exception {
    Capture c = capture(captureName);
    String text = Inferrer.infer(c, ignoreMain(), Optional.of(Sizes.parseOrThrow("16GiB")));
    Design d = DesignParser.parse("inferred.design", text);
    Validation v = Validator.validate(d, "inferred.design", text, c, ignoreMain());
    CheckReport r = Checker.check(d, "inferred.design", Checker.Options.defaults(2_000_000));
    System.out.println("[interlock] infer " + captureName + ": validate " + v.summary() + "; check " + r.verdict().label()
        + "\n" + text);
    assertThat(v).as(captureName).isInstanceOf(Validation.Conforms.class);
    return r;
  }

  @Test
  void twoLockInfersOneWorkerRoleWhoseCheckFindsTheOomWithTwoWorkers() throws Exception {
    CheckReport r = inferAndCheck("two-lock-1");
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.primary().orElseThrow().threads()).isEqualTo(Map.of("gpu_worker", 2));
    assertThat(r.design().roles()).hasSize(1);
  }

  @Test
  void singleLockInfersASafeDesign() throws Exception {
    CheckReport r = inferAndCheck("single-lock");
    assertThat(r.verdict().label()).isEqualTo("SAFE");
    assertThat(r.design().roles()).hasSize(1);
    assertThat(r.design().roles().get(0).threads()).isEqualTo(3);
  }

  /**
   * The reservation engine's guard mutex (vram_units.guard, locked a varying number of times per job by its condition
   * variable) is left out, and its one sync-user call inside {@code acquire vram_units 14} is 14 permits. The capture
   * never shows the semaphore's size: infer sizes it by the most permits held at once, 14 (only one reservation fits
   * on the 16 GiB card), where the hand-written design has 16; both admit one reservation at a time, so the verdict is
   * the same.
   */
  @Test
  void reservationInfersOneWorkerRoleWithItsSemaphoreAndASafeDesign() throws Exception {
    CheckReport r = inferAndCheck("reservation");
    assertThat(r.verdict().label()).isEqualTo("SAFE");
    assertThat(r.design().roles()).hasSize(1);
    assertThat(r.design().roles().get(0).name()).isEqualTo("gpu_worker");
    assertThat(r.design().roles().get(0).threads()).isEqualTo(3);
    String text = Inferrer.infer(capture("reservation"), ignoreMain(), Optional.of(Sizes.parseOrThrow("16GiB")));
    assertThat(text).contains("\nsemaphore vram_units 14\n", "  acquire vram_units 14  #", "  release vram_units 14  #")
        .doesNotContain("guard");
  }

  /**
   * bug-every-N (every 4th job allocates staged before compute_mtx): the three workers are one role whose jobs' two
   * paths are a choose (nothing the capture shows decides which), the jobs that failed at an allocation and only gave
   * back what they held are failures, not handlers; the design conforms to its run and checks to the OOM the run shows,
   * with 2 workers.
   */
  @Test
  void bugInfersOneRoleWithAChooseThatChecksToOomWithTwoWorkers() throws Exception {
    CheckReport r = inferAndCheck("bug");
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.primary().orElseThrow().threads()).isEqualTo(Map.of("gpu_worker", 3 - 1));
    assertThat(r.design().roles()).hasSize(1);
    assertThat(r.design().roles().get(0).threads()).isEqualTo(3);
    assertThat(r.design().roles().get(0).jobs()).isEqualTo(10);
    String text = Inferrer.infer(capture("bug"), ignoreMain(), Optional.of(Sizes.parseOrThrow("16GiB")));
    assertThat(text).contains("\n  choose  #", "\n  or\n").doesNotContain("job_queue", "log_mtx", "on oom");
  }

  /** Both two-lock runs: one role, conforming up to the run's first real OOM, which check finds with 2 workers. */
  @Test
  void twoLockRunsInferOneRoleThatChecksToOomWithTwoWorkers() throws Exception {
    for (String c : new String[] {"two-lock-1", "two-lock-4"}) {
      CheckReport r = inferAndCheck(c);
      assertThat(r.verdict().label()).as(c).isEqualTo("OOM");
      assertThat(r.primary().orElseThrow().threads()).as(c).isEqualTo(Map.of("gpu_worker", 2));
      Validation v = Validator.validate(r.design(), "inferred.design",
          Inferrer.infer(capture(c), ignoreMain(), Optional.of(Sizes.parseOrThrow("16GiB"))), capture(c), ignoreMain());
      assertThat(((Validation.Conforms) v).oomLine()).as(c).isEqualTo(firstFailedAlloc(capture(c)));
    }
  }

  /** phase9-guarded: every job took the pre-staged path, so the cuMemGetInfo decides nothing and is no step; SAFE. */
  @Test
  void phase9GuardedInfersASafeDesign() throws Exception {
    CheckReport r = inferAndCheck("phase9-guarded");
    assertThat(r.verdict().label()).isEqualTo("SAFE");
    assertThat(r.design().roles()).hasSize(1);
    String text = Inferrer.infer(capture("phase9-guarded"), ignoreMain(), Optional.of(Sizes.parseOrThrow("16GiB")));
    assertThat(text).contains("  sync  #", "  trim  #").doesNotContain("if free", "if_free", "choose");
  }

  /** A mapping's {@code ignore mutex NAME} leaves a mutex out of the inferred design, even one held around steps. */
  @Test
  void ignoredMutexIsNoStep() throws Exception {
    Mapping m = Mapping.parse("test.map", "ignore thread main\nignore mutex compute_mtx\n");
    String text = Inferrer.infer(capture("single-lock"), m, Optional.of(Sizes.parseOrThrow("16GiB")));
    assertThat(text).doesNotContain("compute_mtx").contains("  alloc staged 12GiB  #");
    Design d = DesignParser.parse("inferred.design", text);
    assertThat(Validator.validate(d, "inferred.design", text, capture("single-lock"), m)).isInstanceOf(Validation.Conforms.class);
    // without compute_mtx two workers' staged buffers meet: the mapping changed the verdict, as it says
    assertThat(Checker.check(d, "inferred.design", Checker.Options.defaults(2_000_000)).verdict().label()).isEqualTo("OOM");
  }

  /** The line of the first allocation that failed, on a thread other than main. */
  private static int firstFailedAlloc(Capture c) {
    Set<Long> main = mainThreads(c);
    return c.events().stream().filter(e -> !main.contains(e.tid()) && e instanceof CaptureEvent.Alloc a && a.outOfMemory())
        .findFirst().orElseThrow().line();
  }

  /** The line of the first allocation, on a thread other than main, made while its thread does not hold {@code mutex}. */
  private static int firstAllocOutside(Capture c, String mutex) {
    Set<Long> main = mainThreads(c);
    Set<String> objs = new HashSet<>();
    Set<Long> holding = new HashSet<>();
    for (CaptureEvent e : c.events()) {
      if (e instanceof CaptureEvent.Name n && n.name().equals(mutex)) {
        objs.add(n.obj());
      } else if (main.contains(e.tid())) {
        continue;
      } else if (e instanceof CaptureEvent.Acquire a && a.taken() && objs.contains(a.obj())) {
        holding.add(e.tid());
      } else if (e instanceof CaptureEvent.Release r && objs.contains(r.obj())) {
        holding.remove(e.tid());
      } else if (e instanceof CaptureEvent.Alloc && !holding.contains(e.tid())) {
        return e.line();
      }
    }
    throw new AssertionError("no allocation outside " + mutex);
  }

  private static Set<Long> mainThreads(Capture c) {
    Set<Long> main = new HashSet<>();
    for (CaptureEvent e : c.events()) {
      if (e instanceof CaptureEvent.ThreadName n && n.name().equals("main")) {
        main.add(n.named());
      }
    }
    assertThat(main).isNotEmpty();
    return main;
  }
}
