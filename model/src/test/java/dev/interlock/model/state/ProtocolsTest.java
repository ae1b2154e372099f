package dev.interlock.model.state;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.OverlapAnswer;
import dev.interlock.model.check.OverlapQuery;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Task;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import dev.interlock.model.trace.TraceStep;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The semantics of the real-engine constructs: if free, tasks, events, kept and device buffers, the pool threshold. */
class ProtocolsTest {
  private static final Checker.Options OPTS = Checker.Options.defaults(5_000_000);

  private static Design design(long vram, long threshold, List<ResidentBuffer> buffers, List<String> mutexes,
      List<Role> roles, List<Task> tasks) {
    return new Design("t", vram, threshold, buffers, mutexes, List.of(), roles, tasks);
  }

  private static Role role(int threads, int jobs, Step... body) {
    return new Role("w", threads, jobs, List.of(body));
  }

  private static CheckReport check(Design d) {
    return Checker.check(d, "<test>", OPTS);
  }

  private static CheckReport checkPlain(Design d) {
    return Checker.check(d, "<test>", new Checker.Options(5_000_000, java.util.Optional.empty(), true, false));
  }

  /** The guarded staging of cuzk's phase 10, reduced: check free, then allocate; the race is between the two. */
  private static Design guarded(boolean locked) {
    List<Step> staging = List.of(
        new IfFree(true, 12 * GIB, List.of(new Alloc("staged", 12 * GIB, false), new Free("staged")), List.of()));
    List<Step> body = new java.util.ArrayList<>();
    if (locked) {
      body.add(new Lock("m"));
    }
    body.addAll(staging);
    if (locked) {
      body.add(new Unlock("m"));
    }
    return design(16 * GIB, 0, List.of(), List.of("m"), List.of(role(2, 1, body.toArray(Step[]::new))), List.of());
  }

  @Test
  void aGuardReadOutsideTheLockRacesWithAnotherWorkersAllocation() {
    CheckReport r = check(guarded(false));
    assertThat(r.verdict().label()).isEqualTo("OOM");
    List<TraceStep> steps = r.counterexample().orElseThrow().steps();
    // both guards read 16GiB free before either allocates
    assertThat(steps.stream().filter(s -> s.step() instanceof IfFree).map(s -> s.free().orElseThrow()))
        .containsExactly(16 * GIB, 16 * GIB);
    assertThat(steps).hasSize(4);
    assertThat(steps.get(0).phase()).contains(Phase.THEN);
    assertThat(check(guarded(true)).verdict()).isEqualTo(new Verdict.Safe());
  }

  @Test
  void theElseBranchRunsWhenTooLittleIsFree() {
    Design d = design(16 * GIB, 0, List.of(new ResidentBuffer("d_a", 8 * GIB)), List.of(), List.of(role(1, 1,
        new IfFree(true, 12 * GIB, List.of(new Alloc("big", 12 * GIB, false), new Free("big")),
            List.of(new Alloc("small", 4 * GIB, false), new Kernel("k", List.of("small", "d_a")), new Free("small"))))),
        List.of());
    Model m = new Model(d);
    long[] s = m.initial();
    assertThat(m.live(s)).isEqualTo(8 * GIB);
    assertThat(m.nextPhase(s, 0)).contains(Phase.ELSE);
    long[] out = new long[s.length];
    assertThat(m.step(s, 0, out)).isEqualTo(Model.MOVED);
    assertThat(m.nextStep(out, 0).orElseThrow()).isEqualTo(new Alloc("small", 4 * GIB, false));
    assertThat(check(d).verdict()).isEqualTo(new Verdict.Safe());
  }

  @Test
  void aTaskMayFreeItsJobsBufferAfterTheWorkerMovedOn() {
    Task fin = new Task("finalize", List.of(new Cpu("epilogue"), new Free("staged")));
    Design d = design(32 * GIB, 0, List.of(), List.of(), List.of(role(1, 2,
        new Alloc("staged", 12 * GIB, false), new Kernel("ntt", List.of("staged")), new Spawn("finalize"))),
        List.of(fin));
    CheckReport r = check(d);
    assertThat(r.verdict()).isEqualTo(new Verdict.Safe());
    Model m = new Model(d);
    assertThat(m.threads()).isEqualTo(3);
    assertThat(m.threadName(1)).isEqualTo("w#0/finalize@1");
    assertThat(m.threadName(2)).isEqualTo("w#0/finalize@2");
    // the next job's staged and the previous job's staged can both be live: 24GiB does not fit 16GiB
    assertThat(check(d.withVram(16 * GIB)).verdict().label()).isEqualTo("OOM");
  }

  @Test
  void aJobWhoseTaskForgetsToFreeLeaksWhenTheTaskEnds() {
    Task t = new Task("helper", List.of(new Cpu("x")));
    Design d = design(16 * GIB, 0, List.of(), List.of(), List.of(role(1, 1,
        new Alloc("b", GIB, false), new Spawn("helper"))), List.of(t));
    CheckReport r = check(d);
    assertThat(r.verdict().label()).isEqualTo("LEAK");
    assertThat(r.counterexample().orElseThrow().outcome().toString()).contains("ends with live buffers [b]");
  }

  @Test
  void joinWaitsForTheTaskAndSignalWaitIsABarrier() {
    Task prep = new Task("prep_msm", List.of(new Cpu("b_g2_msm"), new Signal("prep_done")));
    Design d = design(16 * GIB, 0, List.of(), List.of("compute_mtx"), List.of(role(2, 1,
        new Spawn("prep_msm"), new Lock("compute_mtx"), new Alloc("buf", 12 * GIB, false),
        new Kernel("ntt_msm", List.of("buf")), new Wait("prep_done"), new Free("buf"), new Unlock("compute_mtx"),
        new Join("prep_msm"))), List.of(prep));
    assertThat(check(d).verdict()).isEqualTo(new Verdict.Safe());
    // b_g2_msm of one worker overlaps the other worker's kernels; within one worker too, with same-worker
    CheckReport across = Checker.check(d, "<test>", OPTS.withOverlap(new OverlapQuery("b_g2_msm", "ntt_msm")));
    assertThat(across.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.REACHABLE);
    Design one = d.withThreads("w", 1);
    CheckReport alone = Checker.check(one, "<test>", OPTS.withOverlap(new OverlapQuery("b_g2_msm", "ntt_msm")));
    assertThat(alone.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.UNREACHABLE);
    CheckReport same = Checker.check(one, "<test>", OPTS.withOverlap(new OverlapQuery("b_g2_msm", "ntt_msm", true)));
    assertThat(same.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.REACHABLE);
  }

  @Test
  void waitingForAnEventNeverSignalledIsADeadlockThatNamesIt() {
    Task t = new Task("helper", List.of(new IfFree(false, GIB, List.of(new Signal("e")), List.of())));
    Design d = design(16 * GIB, 0, List.of(), List.of(), List.of(role(1, 1, new Spawn("helper"), new Wait("e"))),
        List.of(t));
    CheckReport r = check(d);
    assertThat(r.verdict().label()).isEqualTo("DEADLOCK");
    assertThat(r.counterexample().orElseThrow().outcome().toString()).contains("waits for event e");
  }

  @Test
  void joinWithoutSpawnDoesNothingAndJoinOfARunningTaskNamesIt() {
    Task t = new Task("helper", List.of(new Lock("m"), new Unlock("m")));
    Design d = design(16 * GIB, 0, List.of(), List.of("m"), List.of(role(1, 1,
        new Join("helper"), new Lock("m"), new Spawn("helper"), new Join("helper"), new Unlock("m"))), List.of(t));
    CheckReport r = check(d);
    assertThat(r.verdict().label()).isEqualTo("DEADLOCK");
    assertThat(r.counterexample().orElseThrow().outcome().toString())
        .contains("waits for w#0/helper@1").contains("held by w#0");
  }

  @Test
  void aKeptBufferIsAllocatedOnceAndReleasedAfterTheLastJob() {
    Design d = design(16 * GIB, 0, List.of(), List.of(), List.of(role(1, 3,
        new Alloc("d_a", 4 * GIB, false, true), new Kernel("k", List.of("d_a")))), List.of());
    Model m = new Model(d);
    long[] s = m.initial();
    long[] out = new long[s.length];
    int allocs = 0;
    while (!m.allFinished(s)) {
      Step next = m.nextStep(s, 0).orElseThrow();
      long before = m.live(s);
      assertThat(m.step(s, 0, out)).isEqualTo(Model.MOVED);
      if (next instanceof Alloc && m.live(out) > before) {
        allocs++;
      }
      long[] tmp = s;
      s = out;
      out = tmp;
      if (!m.allFinished(s)) {
        assertThat(m.live(s)).isEqualTo(4 * GIB);
      }
    }
    assertThat(allocs).isEqualTo(1);
    assertThat(m.live(s)).as("released at the end, without a transition").isZero();
    assertThat(check(d).verdict()).isEqualTo(new Verdict.Safe());
  }

  @Test
  void thresholdZeroReleasesAtAKernelsEndAndMaxKeepsTheCache() {
    Step[] body = {new Alloc("a", 8 * GIB, true), new Free("a"), new Kernel("k", List.of()), new Sync()};
    Design zero = design(16 * GIB, 0, List.of(), List.of(), List.of(role(1, 1, body)), List.of());
    Design max = zero.withPoolThreshold(Design.THRESHOLD_MAX);
    assertThat(cachedAfterEachStep(zero)).containsExactly(0L, 8 * GIB, 8 * GIB, 0L, 0L);
    assertThat(cachedAfterEachStep(max)).containsExactly(0L, 8 * GIB, 8 * GIB, 8 * GIB, 8 * GIB);
    Design four = zero.withPoolThreshold(4 * GIB);
    assertThat(cachedAfterEachStep(four)).containsExactly(0L, 8 * GIB, 8 * GIB, 4 * GIB, 4 * GIB);
  }

  @Test
  void aStreamSyncReleasesOnlyWhatThatThreadFreed() {
    Design d = design(16 * GIB, 0, List.of(), List.of(), List.of(
        new Role("a", 1, 1, List.of(new Alloc("x", 8 * GIB, true), new Free("x"), new SyncStream())),
        new Role("b", 1, 1, List.of(new Alloc("y", 4 * GIB, true), new Free("y"), new SyncStream()))), List.of());
    Model m = new Model(d);
    long[] s = m.initial();
    long[] out = new long[s.length];
    int[] schedule = {0, 0, 1, 1, 1};
    for (int t : schedule) {
      assertThat(m.step(s, t, out)).isEqualTo(Model.MOVED);
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    // a freed 8GiB; b's alloc reused 4GiB of them and freed them on its stream; b's sync released its 4GiB only
    assertThat(m.cached(s)).isEqualTo(4 * GIB);
    assertThat(m.free(s)).isEqualTo(12 * GIB);
    assertThat(m.step(s, 0, out)).isEqualTo(Model.MOVED);
    assertThat(m.cached(out)).isZero();
  }

  private static List<Long> cachedAfterEachStep(Design d) {
    Model m = new Model(d);
    long[] s = m.initial();
    long[] out = new long[s.length];
    List<Long> cached = new java.util.ArrayList<>();
    while (!m.allFinished(s)) {
      assertThat(m.step(s, 0, out)).isEqualTo(Model.MOVED);
      cached.add(m.cached(out));
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    return cached;
  }

  @Test
  void symmetryReductionAgreesWithThePlainSearchOnTheseDesigns() {
    Task prep = new Task("prep", List.of(new Alloc("t", 2 * GIB, true), new Cpu("c"), new Free("t"), new Signal("e")));
    List<Design> designs = List.of(guarded(false), guarded(true),
        design(16 * GIB, 0, List.of(), List.of("m"), List.of(role(2, 2,
            new Spawn("prep"), new Lock("m"), new IfFree(true, 8 * GIB, List.of(new Alloc("s", 8 * GIB, true)),
                List.of(new Alloc("s", 6 * GIB, false))), new Kernel("k", List.of("s")), new Free("s"),
            new Unlock("m"), new Wait("e"), new Join("prep"))), List.of(prep)));
    for (Design d : designs) {
      CheckReport sym = check(d);
      CheckReport plain = checkPlain(d);
      assertThat(sym.verdict().label()).as(d.toString()).isEqualTo(plain.verdict().label());
      assertThat(sym.counterexample().map(t -> t.length())).isEqualTo(plain.counterexample().map(t -> t.length()));
      assertThat(sym.threads()).isEqualTo(plain.threads());
    }
  }

  @Test
  void restartFreesTheWorkersBuffersAndKeepsOtherWorkers() {
    Design d = design(16 * GIB, 0, List.of(), List.of(), List.of(role(2, 1,
        new Alloc("k", 2 * GIB, false, true), new Alloc("b", 4 * GIB, false), new Free("b"))), List.of());
    Model m = new Model(d);
    long[] s = m.initial();
    long[] out = new long[s.length];
    for (int t : new int[] {0, 0, 1}) {
      m.step(s, t, out);
      s = out.clone();
    }
    assertThat(m.live(s)).isEqualTo(8 * GIB);
    long[] r = m.restart(s, 0);
    assertThat(m.live(r)).isEqualTo(2 * GIB);
    assertThat(m.view(r, 1).buffers()).isEqualTo(Map.of("k", 2 * GIB));
    assertThat(m.view(r, 0).buffers()).isEmpty();
  }

  @Test
  void eventsAreOneShotPerJobAlsoInARoleWithoutTasks() {
    Design d = design(16 * GIB, 0, List.of(), List.of(), List.of(role(1, 2,
        new IfFree(true, 10 * GIB, List.of(new Signal("go")), List.of()),
        new Alloc("k", 8 * GIB, false, true), new Wait("go"))), List.of());
    CheckReport r = check(d);
    assertThat(r.verdict().label()).as("job 2's guard reads 8GiB free and never signals").isEqualTo("DEADLOCK");
  }

  @Test
  void joinOfATaskThisRoleNeverSpawnsIsATransitionThatDoesNothing() {
    Task t = new Task("t", List.of(new Cpu("c")));
    Design d = design(16 * GIB, 0, List.of(), List.of(), List.of(
        new Role("a", 1, 1, List.of(new Spawn("t"))), new Role("b", 1, 1, List.of(new Join("t")))), List.of(t));
    assertThat(check(d).verdict()).isEqualTo(new Verdict.Safe());
  }

  @Test
  void anOomBlockedByUnsynchronizedFreesSaysSo() {
    Design d = design(16 * GIB, Design.THRESHOLD_MAX, List.of(), List.of(), List.of(role(1, 1,
        new Alloc("x", 8 * GIB, true), new Alloc("y", 3 * GIB, true), new Free("y"), new Alloc("z", 6 * GIB, false))),
        List.of());
    CheckReport r = check(d);
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.counterexample().orElseThrow().outcome().toString())
        .contains("8GiB live + 3GiB cached whose free no synchronization has seen + 6GiB requested > 16GiB vram");
  }
}
