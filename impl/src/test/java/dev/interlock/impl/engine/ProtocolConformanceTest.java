package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.JitterGate;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.design.Task;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine and the model decide the new constructs alike: random schedules of the engine replay on the model
 * transition by transition (device bytes, branches and free bytes read included), and the model's counterexamples
 * replay on the engine's real threads.
 */
@Timeout(120)
class ProtocolConformanceTest {
  private static final long GIB = Sizes.GIB;

  /** cuzk-like: a guarded staging under the lock, a helper for b_g2_msm met at a barrier, a finalizer that frees. */
  static Design barrier() {
    List<Role> roles = List.of(new Role("w", 2, 2, List.of(
        new Lock("compute_mtx"),
        new IfFree(true, 4 * GIB, List.of(new Alloc("staged", 4 * GIB, true)), List.of(new Alloc("staged", 2 * GIB, false))),
        new Spawn("prep"),
        new Kernel("ntt", List.of("staged", "d_a")),
        new Wait("prepped"),
        new Unlock("compute_mtx"),
        new Spawn("fin"))));
    List<Task> tasks = List.of(
        new Task("prep", List.of(new Cpu("b_g2_msm"), new Signal("prepped"))),
        new Task("fin", List.of(new Join("prep"), new Free("staged"), new SyncStream())));
    return new Design("barrier", 10 * GIB, 0, List.of(new ResidentBuffer("d_a", 2 * GIB)), List.of("compute_mtx"), List.of(),
        roles, tasks);
  }

  /** A kept buffer per worker, used by a task, and a pool that keeps up to 2GiB. */
  static Design kept() {
    List<Role> roles = List.of(new Role("w", 2, 2, List.of(
        new Alloc("d_bc", 2 * GIB, true, true),
        new Spawn("t"),
        new Kernel("k", List.of("d_bc")),
        new Join("t"))));
    List<Task> tasks = List.of(new Task("t", List.of(new Alloc("tmp", GIB, true), new Kernel("k2", List.of("tmp", "d_bc")),
        new Free("tmp"))));
    return new Design("kept", 8 * GIB, 2 * GIB, List.of(), List.of(), List.of(), roles, tasks);
  }

  /** Pre-staging outside any lock: the guard races with the other worker's staging (OOM). */
  static Design racy() {
    List<Role> roles = List.of(new Role("w", 2, 1, List.of(
        new IfFree(true, 5 * GIB, List.of(new Alloc("pre", 5 * GIB, false)), List.of()),
        new Spawn("fin"))));
    List<Task> tasks = List.of(new Task("fin", List.of(new Cpu("epilogue"), new Free("pre"))));
    return new Design("racy", 8 * GIB, 0, List.of(), List.of(), List.of(), roles, tasks);
  }

  /** A barrier met in the wrong order: the worker joins the helper before signalling what it waits for (DEADLOCK). */
  static Design crossed() {
    List<Role> roles = List.of(new Role("w", 2, 1, List.of(
        new Alloc("b", GIB, false),
        new Spawn("prep"),
        new Join("prep"),
        new Signal("go"),
        new Free("b"))));
    List<Task> tasks = List.of(new Task("prep", List.of(new Wait("go"), new Cpu("b_g2_msm"))));
    return new Design("crossed", 8 * GIB, 0, List.of(), List.of(), List.of(), roles, tasks);
  }

  /** A fallback on out-of-memory: the fast path's buffer, or under its handler a smaller one of the same name. */
  static Design fallback() {
    List<Role> roles = List.of(new Role("w", 2, 2, List.of(
        new Alloc("big", 6 * GIB, false, false, new OnOom.Handle(List.of(new Alloc("big", 2 * GIB, false), new Cpu("plan")))),
        new Kernel("k", List.of("big")),
        new Free("big"))));
    return new Design("fallback", 8 * GIB, 0, List.of(), List.of(), List.of(), roles, List.of());
  }

  /** Ignored failures: a kept buffer, and an async job buffer that a task uses and frees (SWALLOWED_OOM). */
  static Design ignored() {
    List<Role> roles = List.of(new Role("w", 2, 2, List.of(
        new Alloc("kb", 2 * GIB, false, true, OnOom.IGNORE),
        new Alloc("s", 3 * GIB, true, false, OnOom.IGNORE),
        new Spawn("t"),
        new Kernel("k", List.of("kb")),
        new Join("t"))));
    List<Task> tasks = List.of(new Task("t", List.of(new Kernel("k2", List.of("s", "kb")), new Free("s"))));
    return new Design("ignored", 8 * GIB, 0, List.of(), List.of(), List.of(), roles, tasks);
  }

  @Test
  void randomEngineSchedulesReplayOnTheModel() {
    for (Design d : List.of(barrier(), kept(), racy(), crossed(), fallback(), ignored())) {
      int failedAllocs = 0;
      for (long seed = 0; seed < 25; seed++) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Scheduled.RandomRun run = Scheduled.random(d, d.name() + ".design", new SimulatedDevice(d.vram()),
            InterpretedPipeline::new, rnd::nextInt);
        Trace engine = run.report().trace();
        assertThat(Replayer.replay(engine, d)).as("%s seed %d:%n%s", d.name(), seed, TraceFormat.print(engine))
            .isInstanceOf(ReplayResult.Confirmed.class);
        assertThat(run.report().memory().live()).as("%s seed %d: live at the end", d.name(), seed).isZero();
        assertThat(run.report().results()).as("every job has one result").hasSize(d.roles().get(0).threads() * d.roles().get(0).jobs());
        failedAllocs += (int) engine.steps().stream().filter(x -> x.phase().equals(java.util.Optional.of(Phase.OOM))).count();
      }
      if (d.name().equals("fallback") || d.name().equals("ignored")) {
        assertThat(failedAllocs).as("%s: schedules where an allocation fails into its on oom", d.name()).isPositive();
      }
    }
  }

  @Test
  void freeRunsWithTimingJitterAreLinearizationsTheModelReplays() {
    long base = Long.getLong("interlock.seed", 0x7A5C5L);
    System.out.println("[interlock] ProtocolConformanceTest free runs seed=" + base + " (rerun with -Dinterlock.seed=" + base + ")");
    for (Design d : List.of(barrier().withJobs("w", 6), kept().withJobs("w", 6), racy().withJobs("w", 3),
        fallback().withJobs("w", 6), ignored().withJobs("w", 3))) {
      for (int run = 0; run < 15; run++) {
        RunReport r = new Engine(new SimulatedDevice(d.vram()), new JitterGate(base + run, 50), 50)
            .run(d, d.name() + ".design", InterpretedPipeline::new);
        assertThat(Replayer.replay(r.trace(), d)).as("%s run %d:%n%s", d.name(), run, TraceFormat.print(r.trace()))
            .isInstanceOf(ReplayResult.Confirmed.class);
        assertThat(r.results()).as("%s run %d: one result per job", d.name(), run).hasSize(d.roles().get(0).threads() * d.roles().get(0).jobs());
        assertThat(r.deadlock()).as("%s run %d", d.name(), run).isEmpty();
        assertThat(r.memory().live()).isZero();
      }
    }
  }

  @Test
  void theModelsCounterexamplesReplayOnTheEngine() throws Exception {
    for (Design d : List.of(barrier(), kept(), racy(), crossed(), fallback(), ignored())) {
      CheckReport c = Checker.check(d, d.name() + ".design", Checker.Options.defaults(2_000_000));
      if (c.counterexample().isEmpty()) {
        continue;
      }
      // through the trace file format, as a golden trace comes: an if step is its first line and the bytes it read
      Trace t = TraceFormat.parse("<" + d.name() + ">", TraceFormat.print(c.counterexample().get()));
      Design at = t.params().applyTo(d); // the checker may have shrunk the counterexample to fewer threads or jobs
      Scheduled.Replay r = Scheduled.replay(at, t.source(), t, new SimulatedDevice(at.vram()), InterpretedPipeline::new);
      assertThat(r.result()).as("%s: %s%n%s", d.name(), c.verdict(), TraceFormat.print(t)).isInstanceOf(ReplayResult.Confirmed.class);
    }
    assertThat(Checker.check(racy(), "racy.design", Checker.Options.defaults(2_000_000)).verdict().label()).isEqualTo("OOM");
    assertThat(Checker.check(crossed(), "crossed.design", Checker.Options.defaults(2_000_000)).verdict().label()).isEqualTo("DEADLOCK");
    assertThat(Checker.check(fallback(), "fallback.design", Checker.Options.defaults(2_000_000)).verdict().label()).isEqualTo("SAFE");
    assertThat(Checker.check(ignored(), "ignored.design", Checker.Options.defaults(2_000_000)).verdict().label())
        .isEqualTo("SWALLOWED_OOM");
  }
}
