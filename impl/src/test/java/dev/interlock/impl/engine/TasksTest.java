package dev.interlock.impl.engine;

import static dev.interlock.impl.engine.ControlledScheduler.Result.BLOCKED;
import static dev.interlock.impl.engine.ControlledScheduler.Result.FINISHED;
import static dev.interlock.impl.engine.ControlledScheduler.Result.MOVED;
import static dev.interlock.impl.engine.Stepper.design;
import static dev.interlock.impl.engine.Stepper.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import dev.interlock.model.trace.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** spawn, join, signal and wait on real threads: exact interleavings under a hand-cranked scheduler. */
@Timeout(30)
class TasksTest {
  private static final long GIB = Sizes.GIB;
  private static final Cpu WORK = new Cpu("work");

  private static List<String> threadsOf(RunReport r) {
    return r.events().stream().map(Event::thread).distinct().toList();
  }

  @Test
  void joinBlocksUntilTheSpawnedTaskHasEnded() {
    Design d = design(4 * GIB, 0, List.of(), 2, List.of(new Spawn("t"), new Join("t"), new Cpu("after")), task("t", WORK));
    Stepper s = new Stepper(d);
    s.grant("w#0", MOVED);
    assertThat(s.sched.waiting()).as("the task is a thread of its own, named as in the model").containsExactly("w#0", "w#0/t@1");
    s.grant("w#0", BLOCKED).grant("w#0", BLOCKED);
    s.moves("w#0/t@1", 1).grant("w#0", BLOCKED);
    s.grant("w#0/t@1", FINISHED);
    s.grant("w#0", MOVED);
    RunReport r = s.finish();
    assertThat(r.completed()).isEqualTo(2);
    assertThat(threadsOf(r)).containsExactly("w#0", "w#0/t@1", "w#0/t@2");
    List<String> job1 = r.events().stream().filter(e -> e.job() == 0).map(e -> e.thread() + " " + e.step().text()
        + e.phase().map(p -> " " + p.label()).orElse("")).toList();
    assertThat(job1).containsExactly("w#0 spawn t", "w#0/t@1 cpu work begin", "w#0/t@1 cpu work end", "w#0 join t",
        "w#0 cpu after begin", "w#0 cpu after end");
  }

  @Test
  void aJoinWhenTheJobSpawnedNoTaskOfThatNameReturnsAtOnce() {
    Design d = design(4 * GIB, 0, List.of(), 1, List.of(new Join("t"), WORK), task("t", new Cpu("never")));
    Stepper s = new Stepper(d);
    s.grant("w#0", MOVED);
    RunReport r = s.finish();
    assertThat(r.completed()).isEqualTo(1);
    assertThat(r.events()).extracting(e -> e.step().text()).containsExactly("join t", "cpu work", "cpu work");
  }

  @Test
  void joinWaitsForTheMostRecentInstanceSpawnedInTheJobByAnyOfItsThreads() {
    // the role spawns t, then u, which spawns t again: the role's join waits for u's t, the latest
    Design d = design(4 * GIB, 0, List.of(), 1, List.of(new Spawn("t"), new Spawn("u"), new Join("u"), new Join("t")),
        task("t", WORK), task("u", new Spawn("t")));
    Stepper s = new Stepper(d);
    s.moves("w#0", 2).grant("w#0/u@1", FINISHED);
    assertThat(s.sched.waiting()).containsExactly("w#0", "w#0/t@1", "w#0/t@1.2");
    s.grant("w#0", MOVED);
    s.moves("w#0/t@1", 1).grant("w#0/t@1", FINISHED);
    s.grant("w#0", BLOCKED);
    s.moves("w#0/t@1.2", 1).grant("w#0/t@1.2", FINISHED);
    s.grant("w#0", FINISHED);
    assertThat(s.end().completed()).isEqualTo(1);
  }

  @Test
  void spawnsInsideAnIfBlockAreNamedByTheirPlaceInTheFlattenedBody() {
    // sites: 0 if, 1 spawn t (then), 2 spawn u (else), 3 spawn t; the then branch runs: t@1, then t@1.2
    Design d = design(4 * GIB, 0, List.of(), 1, List.of(
        new IfFree(true, GIB, List.of(new Spawn("t")), List.of(new Spawn("u"))), new Spawn("t")), task("t", WORK), task("u", WORK));
    Stepper s = new Stepper(d);
    s.moves("w#0", 2).grant("w#0", FINISHED);
    assertThat(s.sched.waiting()).containsExactly("w#0/t@1", "w#0/t@1.2");
    assertThat(s.finish().completed()).isEqualTo(1);
  }

  @Test
  void waitBlocksUntilAThreadOfTheSameJobSignals() {
    // each job's event is its own: job 2's wait is not satisfied by job 1's signal
    Design d = design(4 * GIB, 0, List.of(), 2, List.of(new Spawn("t"), new Wait("ready"), WORK), task("t", new Signal("ready")));
    Stepper s = new Stepper(d);
    s.grant("w#0", MOVED).grant("w#0", BLOCKED);
    s.grant("w#0/t@1", FINISHED);
    s.moves("w#0", 3);
    s.grant("w#0", MOVED); // job 2: spawn t
    s.grant("w#0", BLOCKED);
    s.grant("w#0/t@2", FINISHED);
    s.grant("w#0", MOVED);
    RunReport r = s.finish();
    assertThat(r.completed()).isEqualTo(2);
    assertThat(r.trace().outcome()).isInstanceOf(Outcome.Completed.class);
  }

  @Test
  void aTaskHoldsItsOwnMutexes() {
    // the task locks m; the role thread cannot take it until the task unlocks
    Design d = design(4 * GIB, 0, List.of(), List.of("m"),
        new Role("w", 1, 1, List.of(new Spawn("t"), new Lock("m"), new Unlock("m"))), task("t", new Lock("m"), WORK, new Unlock("m")));
    Stepper s = new Stepper(d);
    s.grant("w#0", MOVED).moves("w#0/t@1", 1);
    s.grant("w#0", BLOCKED);
    s.moves("w#0/t@1", 2).grant("w#0/t@1", FINISHED);
    s.grant("w#0", MOVED).grant("w#0", FINISHED);
    RunReport r = s.end();
    assertThat(r.completed()).isEqualTo(1);
  }

  @Test
  void aWaitNeverSignalledAndAJoinOfItAreADeadlockThatNamesWhatEachWaitsFor() {
    Design d = design(4 * GIB, 0, List.of(), 1, List.of(new Spawn("t"), new Join("t"), new Signal("go")), task("t", new Wait("go")));
    RunReport r = new Engine(new SimulatedDevice(d.vram()), StepGate.FREE, 20).run(d, "deadlock.design", InterpretedPipeline::new);
    assertThat(r.deadlock()).isPresent();
    assertThat(r.deadlock().get())
        .contains("w#0 at 'join t', waiting on task w#0/t@1 to end")
        .contains("w#0/t@1 at 'wait go', waiting on event go of w#0 job 1");
    JobResult.Failed f = (JobResult.Failed) r.results().get(0);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.DEADLOCK);
    assertThat(r.trace().outcome()).isInstanceOf(Outcome.Violated.class);
  }

  @Test
  void aFailedTaskCancelsTheJobsOtherThreadsAndReleasesWhatTheyHeld() {
    // the task runs out of memory; the role thread waits for an event it would have signalled: the job ends anyway,
    // and the next job can lock m, which the task held
    List<Step> body = List.of(new Spawn("t"), new Wait("staged"), new Lock("m"), new Unlock("m"));
    Design d = design(4 * GIB, 0, List.of(), List.of("m"), new Role("w", 1, 2, body),
        task("t", new Lock("m"), new Alloc("a", GIB, false), new Alloc("big", 4 * GIB, false), new Signal("staged"),
            new Free("big"), new Free("a"), new Unlock("m")));
    SharedEngine engine = new SharedEngine(d, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
    for (int job = 0; job < 2; job++) {
      JobResult r = engine.run("w");
      JobResult.Failed f = (JobResult.Failed) r;
      assertThat(f.violation().kind()).as("job %d", job).isEqualTo(ViolationKind.OOM);
      assertThat(f.worker()).isEqualTo("w#0/t@" + (job + 1));
      assertThat(f.step()).isEqualTo("alloc big 4GiB");
      assertThat(engine.device().memory().live()).as("a is freed when the job closes").isZero();
    }
  }
}
