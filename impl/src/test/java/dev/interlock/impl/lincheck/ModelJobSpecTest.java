package dev.interlock.impl.lincheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.SharedEngine;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.design.Task;
import dev.interlock.model.state.DeviceMemory;
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
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sequential specification agrees with {@link SharedEngine} on one thread, job after job, also
 * when jobs fail: the same verdict at the same step, and the same device afterwards (what the
 * failed job held is released, its async buffers into the pool's cache). The Lincheck tests rely
 * on this; with the shipped designs no job fails when run alone, so it is checked here.
 */
class ModelJobSpecTest {
  private static final long GIB = Sizes.GIB;

  private static final class Spec extends ModelJobSpec {
    Spec(Design d) {
      super(d);
    }
  }

  /** Runs {@code jobs} jobs of role w on the engine and the spec; returns the engine's answers. */
  private static String[] agree(String designText, int jobs) {
    return agree(TestDesigns.parse(designText), jobs);
  }

  private static String[] agree(Design d, int jobs) {
    SharedEngine engine = new SharedEngine(d, new SimulatedDevice(d.vram()), InterpretedPipeline::new);
    Spec spec = new Spec(d);
    String[] answers = new String[jobs];
    for (int i = 0; i < jobs; i++) {
      answers[i] = engine.runJob("w");
      assertThat(spec.runJob("w")).as("job %d", i).isEqualTo(answers[i]);
      MemoryInfo m = engine.device().memory();
      DeviceMemory expected = spec.memory();
      assertThat(new long[] {m.capacity(), m.live(), m.cached()}).as("device after job %d", i)
          .containsExactly(expected.vram(), expected.live(), expected.cachedTotal());
    }
    return answers;
  }

  @Test
  void anOutOfMemoryReleasesTheJobsBuffersAsyncOnesIntoTheCache() {
    String[] r = agree("""
        design oom
        vram 16GiB
        role w
          alloc a 4GiB async
          alloc big 14GiB
          free big
          free a
        """, 3);
    assertThat(r).containsOnly("OOM at alloc big 14GiB");
  }

  @Test
  void anOutOfMemoryStillReleasesThePoolsCache() {
    String[] r = agree("""
        design oomcache
        vram 16GiB
        role w
          alloc keep 2GiB
          alloc a 4GiB async
          free a
          alloc big 15GiB
          free big
          free keep
        """, 3);
    assertThat(r).containsOnly("OOM at alloc big 15GiB");
  }

  @Test
  void aBufferAllocatedBothAsyncAndPlainIsFreedByTheAllocThatMadeIt() {
    String[] r = agree("""
        design realloc
        vram 16GiB
        role w
          alloc a 4GiB async
          free a
          alloc a 4GiB
        """, 3);
    assertThat(r).containsOnly("LEAK at " + SharedEngine.END_OF_JOB);
  }

  @Test
  void aJobEndingWithALiveBufferIsALeakAndTheBufferIsFreed() {
    String[] r = agree("""
        design leak
        vram 16GiB
        role w
          alloc a 12GiB
        """, 3);
    assertThat(r).containsOnly("LEAK at " + SharedEngine.END_OF_JOB);
  }

  @Test
  void lockingAHeldMutexIsADeadlockAndTheMutexIsReleased() {
    String[] r = agree("""
        design relock
        vram 16GiB
        mutex m
        role w
          lock m
          alloc a 1GiB
          lock m
          free a
          unlock m
        """, 3);
    assertThat(r).containsOnly("DEADLOCK at lock m");
  }

  @Test
  void misuseVerdictsMatch() {
    assertThat(agree("""
        design unlock
        vram 16GiB
        mutex m
        role w
          unlock m
        """, 2)).containsOnly("UNLOCK_NOT_HELD at unlock m");
    assertThat(agree("""
        design excess
        vram 16GiB
        semaphore s 4
        role w
          acquire s 2
          release s 3
        """, 2)).containsOnly("RELEASE_EXCESS at release s 3");
    assertThat(agree("""
        design uaf
        vram 16GiB
        role w
          alloc a 1GiB
          free a
          kernel k uses a
        """, 2)).containsOnly("USE_AFTER_FREE at kernel k uses a");
  }

  @Test
  void theShippedDesignsRunAloneNeverFail() {
    for (String name : new String[] {"two-lock", "single-lock", "reservation", "single-lock-late-release"}) {
      Design d = TestDesigns.shipped(name);
      Spec spec = new Spec(d);
      for (int i = 0; i < 5; i++) {
        assertThat(spec.runJob("gpu_worker")).as(name).isEqualTo("ok");
      }
      assertThat(spec.memory().live()).isZero();
      assertThat(Sizes.format(spec.memory().vram())).isEqualTo("16GiB");
    }
  }

  // ---- jobs with tasks: the spec runs a job's tasks too, as SharedEngine's runJob waits for them ----

  private static Design withTasks(long vram, List<Step> body, Task... tasks) {
    return new Design("tasks", vram, 0, List.of(), List.of("m"), List.of(), List.of(new Role("w", 1, 1, body)), List.of(tasks));
  }

  @Test
  void aTaskThatFreesTheJobsBufferAfterTheRoleThreadEndedIsOk() {
    Design d = withTasks(4 * GIB, List.of(new Alloc("b", 2 * GIB, true), new Spawn("fin")),
        new Task("fin", List.of(new Kernel("k", List.of("b")), new Free("b"))));
    assertThat(agree(d, 3)).containsOnly("ok");
  }

  @Test
  void aTaskRunningOutOfMemoryFailsTheJobAndCancelsTheRoleThreadsWait() {
    Design d = withTasks(4 * GIB, List.of(new Alloc("a", GIB, true), new Spawn("t"), new Wait("staged"), new Free("a")),
        new Task("t", List.of(new Lock("m"), new Alloc("big", 4 * GIB, false), new Signal("staged"), new Free("big"),
            new Unlock("m"))));
    assertThat(agree(d, 3)).containsOnly("OOM at alloc big 4GiB");
  }

  @Test
  void aJobWhoseTaskEndsLastWithABufferLiveLeaksAtTheJobsEnd() {
    Design d = withTasks(4 * GIB, List.of(new Alloc("b", GIB, true), new Spawn("t")), new Task("t", List.of(new Cpu("work"))));
    assertThat(agree(d, 3)).containsOnly("LEAK at " + SharedEngine.END_OF_JOB);
  }

  @Test
  void aKeptBufferStaysFromJobToJobAndAGuardSeesIt() {
    Design d = withTasks(8 * GIB, List.of(new Alloc("d", 4 * GIB, false, true), new Spawn("t"), new Join("t")),
        new Task("t", List.of(new IfFree(true, 4 * GIB, List.of(new Alloc("x", 4 * GIB, false), new Free("x")),
            List.of(new Alloc("x", 5 * GIB, false))))));
    assertThat(agree(d, 3)).containsOnly("ok");
  }

  // ---- allocations with on oom: a handled failure is ok, an ignored one SWALLOWED_OOM and the job goes on ----

  @Test
  void aHandledFailureRunsTheHandlerAndTheJobIsOk() {
    String[] r = agree("""
        design fallback
        vram 8GiB
        role w
          alloc a 10GiB async
          on oom
            alloc a 2GiB
          end
          kernel k uses a
          free a
        """, 3);
    assertThat(r).containsOnly("ok");
  }

  @Test
  void anIgnoredFailureIsSwallowedAtTheAllocAndTheJobGoesOnToItsEnd() {
    // the task's kernel runs without s and frees it (nothing); the job's other buffer a is freed as usual
    Design d = withTasks(8 * GIB, List.of(new Alloc("a", 2 * GIB, true), new Alloc("s", 7 * GIB, true, false,
        dev.interlock.model.step.OnOom.IGNORE), new Spawn("t"), new Join("t"), new Free("a")),
        new Task("t", List.of(new Kernel("k", List.of("a", "s")), new Free("s"))));
    assertThat(agree(d, 3)).containsOnly("SWALLOWED_OOM at alloc s 7GiB async");
  }

  @Test
  void aRealFailureAfterAnIgnoredOneIsTheJobsAnswer() {
    String[] r = agree("""
        design both
        vram 8GiB
        role w
          alloc s 9GiB
          on oom ignore
          alloc a 6GiB
          alloc b 6GiB
          free b
          free a
        """, 2);
    assertThat(r).containsOnly("OOM at alloc b 6GiB");
  }
}
