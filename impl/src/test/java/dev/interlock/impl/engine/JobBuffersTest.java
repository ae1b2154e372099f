package dev.interlock.impl.engine;

import static dev.interlock.impl.engine.ControlledScheduler.Result.FAILED;
import static dev.interlock.impl.engine.ControlledScheduler.Result.FINISHED;
import static dev.interlock.impl.engine.ControlledScheduler.Result.MOVED;
import static dev.interlock.impl.engine.Stepper.design;
import static dev.interlock.impl.engine.Stepper.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.TraceStep;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Buffers belong to a job, and kept buffers to the role thread: who frees what, when a job leaks, when kept ones go. */
@Timeout(30)
class JobBuffersTest {
  private static final long GIB = Sizes.GIB;

  private static JobResult.Failed failed(RunReport r) {
    return r.results().stream().filter(JobResult.Failed.class::isInstance).map(JobResult.Failed.class::cast).findFirst()
        .orElseThrow(() -> new AssertionError("no failed job in " + r.results()));
  }

  @Test
  void aTaskFreesTheJobsBufferAfterTheWorkerMovedOnToItsNextJob() {
    // cuzk's finalizer: the worker's next job allocates its own b while the last job's task still holds the first
    Design d = design(4 * GIB, 0, List.of(), 2, List.of(new Alloc("b", GIB, true), new Spawn("fin")),
        task("fin", new Cpu("epilogue"), new Free("b"), new SyncStream()));
    Stepper s = new Stepper(d);
    s.moves("w#0", 2); // job 1: alloc b, spawn fin; the role thread has ended job 1
    s.grant("w#0", MOVED); // job 2: alloc b, its own
    assertThat(s.live()).as("two buffers called b, one per job").isEqualTo(2 * GIB);
    s.moves("w#0/fin@1", 3); // the task frees job 1's b, on its own stream
    assertThat(s.live()).isEqualTo(GIB);
    assertThat(s.device.memory().cached()).isEqualTo(GIB);
    s.grant("w#0/fin@1", FINISHED); // its stream's synchronization releases what it freed
    assertThat(s.device.memory().cached()).isZero();
    RunReport r = s.finish();
    assertThat(r.completed()).as("no leak: each b was freed by its job's task").isEqualTo(2);
    assertThat(r.trace().outcome()).isInstanceOf(Outcome.Completed.class);
    assertThat(r.memory().live()).isZero();
  }

  @Test
  void aFreeOnAnotherThreadsStreamIsNotReleasedByTheWorkersStreamSync() {
    // the task frees b asynchronously on its stream; the worker's sync stream releases only its own stream's bytes
    Design d = design(4 * GIB, 0, List.of(), 1, List.of(new Alloc("b", GIB, true), new Spawn("fin"), new Cpu("wait"),
        new SyncStream(), new Cpu("more")), task("fin", new Free("b")));
    Stepper s = new Stepper(d);
    s.moves("w#0", 2).grant("w#0/fin@1", FINISHED);
    s.moves("w#0", 3);
    assertThat(s.device.memory().cached()).as("after the worker's sync stream").isEqualTo(GIB);
  }

  @Test
  void theLeakCheckOfAJobWaitsForItsTasks() {
    // the role thread ends its body with b live; the task frees it later: no leak
    Design d = design(4 * GIB, 0, List.of(), 1, List.of(new Alloc("b", GIB, false), new Spawn("t")),
        task("t", new Cpu("work"), new Free("b")));
    Stepper s = new Stepper(d);
    s.moves("w#0", 1).grant("w#0", FINISHED);
    assertThat(s.run.log().firstViolation()).isEmpty();
    RunReport r = s.finish();
    assertThat(r.completed()).isEqualTo(1);
  }

  @Test
  void aJobWhoseLastTaskEndsWithItsBufferLiveLeaksAtThatTasksLastStep() {
    Design d = design(4 * GIB, 0, List.of(), 2, List.of(new Alloc("b", GIB, false), new Spawn("t")), task("t", new Cpu("work")));
    Stepper s = new Stepper(d);
    s.moves("w#0", 2).moves("w#0/t@1", 1);
    s.grant("w#0/t@1", FAILED);
    RunReport r = s.end();
    JobResult.Failed f = failed(r);
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.LEAK);
    assertThat(f.violation().message()).isEqualTo("w#0 job 0 ends with live buffers [b]");
    assertThat(f.step()).isEqualTo("after 'cpu work'");
    List<TraceStep> steps = r.trace().steps();
    assertThat(steps.get(steps.size() - 1).thread()).isEqualTo("w#0/t@1");
    assertThat(steps.get(steps.size() - 1).used()).as("b is still live in the leaking transition").isEqualTo(GIB);
    assertThat(r.memory().live()).as("the failed job's buffers are freed").isZero();
  }

  @Test
  void allocatingALiveBufferOfTheSameJobIsALeakEvenFromATask() {
    Design d = design(4 * GIB, 0, List.of(), 1, List.of(new Alloc("b", GIB, false), new Spawn("t"), new Cpu("work")),
        task("t", new Alloc("b", GIB, false)));
    Stepper s = new Stepper(d);
    s.moves("w#0", 2).grant("w#0/t@1", FAILED);
    JobResult.Failed f = failed(s.end());
    assertThat(f.violation().kind()).isEqualTo(ViolationKind.LEAK);
    assertThat(f.worker()).isEqualTo("w#0/t@1");
    assertThat(f.step()).isEqualTo("alloc b 1GiB");
    assertThat(f.violation().message()).isEqualTo("w#0/t@1 alloc b 1GiB: b is still live, its earlier allocation leaks");
  }

  @Test
  void aKeptBufferIsAllocatedOnceAndReleasedAfterTheLastJobsTasksEnd() {
    // the task's kernel uses the kept d of its role thread; d lives across jobs and goes when the last task ends
    Design d = design(8 * GIB, 0, List.of(), 3, List.of(new Alloc("d", 4 * GIB, false, true), new Spawn("t")),
        task("t", new Kernel("k", List.of("d"))));
    Stepper s = new Stepper(d);
    for (int job = 1; job <= 3; job++) {
      s.moves("w#0", 1).grant("w#0", job < 3 ? MOVED : FINISHED);
      assertThat(s.live()).as("job %d: one d", job).isEqualTo(4 * GIB);
      s.moves("w#0/t@" + job, 1);
      if (job < 3) {
        s.grant("w#0/t@" + job, FINISHED);
        assertThat(s.live()).as("a kept buffer live at a job's end is no leak").isEqualTo(4 * GIB);
      }
    }
    s.grant("w#0/t@3", FINISHED);
    assertThat(s.live()).as("released when the last job's task ended").isZero();
    RunReport r = s.end();
    assertThat(r.completed()).isEqualTo(3);
    List<TraceStep> steps = r.trace().steps();
    assertThat(steps.get(steps.size() - 1).used()).as("inside the last task's last transition").isZero();
    assertThat(r.events().stream().filter(e -> e.step() instanceof Alloc).map(Event::used))
        .as("the later allocs allocate nothing").containsExactly(4 * GIB, 4 * GIB, 4 * GIB);
    assertThat(r.leftover()).isZero();
  }

  @Test
  void aKeptBufferAllocatedByATaskBelongsToTheRoleThreadAndAFreedOneIsAllocatedAgain() {
    Design d = design(8 * GIB, 0, List.of(), 2, List.of(new Spawn("t"), new Kernel("k", List.of("d"))),
        task("t", new Alloc("d", 4 * GIB, true, true)));
    // the role thread's kernel uses the d its task allocated: job 1 joins nothing, so order the steps by hand
    Stepper s = new Stepper(d);
    s.grant("w#0", MOVED).grant("w#0/t@1", FINISHED).moves("w#0", 1).grant("w#0", MOVED);
    assertThat(s.live()).isEqualTo(4 * GIB);
    RunReport r = s.finish();
    assertThat(r.completed()).isEqualTo(2);
    assertThat(r.memory().live()).isZero();

    Design again = design(8 * GIB, 0, List.of(), 2, List.of(new Alloc("d", 4 * GIB, false, true), new Free("d")));
    RunReport r2 = new Stepper(again).finish();
    assertThat(r2.events().stream().map(Event::used)).as("a freed kept buffer is allocated again")
        .containsExactly(4 * GIB, 0L, 4 * GIB, 0L);
  }

  @Test
  void aKeptBufferStaysWithACallersThreadOnTheSharedEngine() {
    Design d = design(8 * GIB, 0, List.of(), 1, List.of(new Alloc("d", 4 * GIB, false, true), new Kernel("k", List.of("d"))));
    SharedEngine engine = new SharedEngine(d, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
    for (int i = 0; i < 3; i++) {
      assertThat(engine.runJob("w")).isEqualTo("ok");
      assertThat(engine.device().memory().live()).isEqualTo(4 * GIB);
    }
  }
}
