package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Step;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job whose thread fails while other threads of the job still run: its buffers are freed before any lock it held is
 * given back, and its other threads, wherever they wait, end first.
 *
 * <p>Why: a failed thread that gave back its lock at once, while a sibling task kept the job open, let the next holder
 * of the lock allocate beside the failed job's still live buffer and run out of memory for real: the seed's failure,
 * made by the engine's own error handling. Each design here has worker b wait for m and allocate what fits only once
 * a's failed job has freed its 12 GiB. The scheduler is cranked by hand, so each interleaving is exact; the free runs
 * (where a sibling's wait is ended by an interrupt) are ordered by a gate that holds a thread at a step until others
 * have reached theirs.
 */
@Timeout(30)
class FailedJobSiblingsTest {

  /** Worker a locks m over its 12 GiB buffer and fails at kernel k (injected); b then locks m and allocates 8 GiB. */
  private static Design design(List<String> helper, List<String> before, List<String> after) {
    return TestDesigns.parse("""
        design siblings
        vram 16GiB
        mutex m
        mutex n
        task helper
        %s
        role a x1 jobs 1
        %s
          kernel k uses big
          free big
          signal go
        %s
        role b x1 jobs 1
          lock m
          alloc other 8GiB
          free other
          unlock m
        role c x1 jobs 1
          lock n
          lock m
          unlock m
          unlock n
        """.formatted(body(helper), body(before), body(after)));
  }

  private static String body(List<String> steps) {
    return "  " + String.join("\n  ", steps);
  }

  /** A controlled run of {@code d} with an exception injected at a's kernel k. */
  private record Cranked(ControlledScheduler sched, Engine.Run run, FaultyDevice device) {
    static Cranked start(Design d) {
      FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(d.vram()),
          new Faults(FaultSpec.parse("--faults", "exception@k:1"), 1));
      ControlledScheduler sched = new ControlledScheduler(Engine.threadNames(d));
      Engine.Run run = new Engine(dev, sched).start(d, "siblings.design", InterpretedPipeline::new);
      sched.awaitReady();
      return new Cranked(sched, run, dev);
    }

    Cranked grant(String thread, ControlledScheduler.Result expected) {
      assertThat(sched.grant(thread)).as("%s (%s)", thread, sched.describe()).isEqualTo(expected);
      return this;
    }

    /**
     * Grants, again and again, the first thread in {@code order} that moves, until none does; checks the results, then
     * that no thread was left blocked.
     */
    void finish(List<String> order) {
      boolean moved = true;
      while (moved && sched.failure().isEmpty()) {
        moved = false;
        for (String t : order) {
          if (sched.waiting().contains(t) && sched.grant(t) != ControlledScheduler.Result.BLOCKED) {
            moved = true;
            break;
          }
        }
      }
      String left = sched.describe();
      sched.end("test finished");
      assertOnlyAFaulted(run.await());
      assertThat(left).as("every thread has finished").doesNotContain("blocked").doesNotContain("at step");
    }
  }

  /**
   * A free gate (no scheduler) that holds a thread at a step until other threads have reached theirs: the order a
   * test needs, on free-running threads. Keys are {@code "thread step"}.
   */
  private static final class OrderGate implements StepGate {
    private final Map<String, List<String>> after;
    private final Map<String, CountDownLatch> reached = new ConcurrentHashMap<>();

    OrderGate(Map<String, List<String>> after) {
      this.after = after;
    }

    private CountDownLatch latch(String at) {
      return reached.computeIfAbsent(at, k -> new CountDownLatch(1));
    }

    @Override
    public boolean controlled() {
      return false;
    }

    @Override
    public void before(Step step, Optional<Phase> phase) {
      String at = Thread.currentThread().getName() + " " + step.text();
      for (String other : after.getOrDefault(at, List.of())) {
        try {
          if (!latch(other).await(10, TimeUnit.SECONDS)) {
            throw new AssertionError(at + ": " + other + " was not reached in 10 s");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError(at + ": interrupted", e);
        }
      }
      latch(at).countDown();
    }
  }

  /** A free run of {@code d}, ordered by {@code after}, with an exception injected at a's kernel k. */
  private static RunReport free(Design d, Map<String, List<String>> after) {
    FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(d.vram()),
        new Faults(FaultSpec.parse("--faults", "exception@k:1"), 1));
    RunReport r = new Engine(dev, new OrderGate(after), 100).run(d, "siblings.design", InterpretedPipeline::new);
    assertThat(r.deadlock()).isEmpty();
    assertOnlyAFaulted(r);
    return r;
  }

  /** a's job is Faulted at kernel k, every other job completed, nothing live and nothing held at the end. */
  private static void assertOnlyAFaulted(RunReport r) {
    assertThat(r.results()).as("%s", r.results()).hasSize(3);
    JobResult first = r.results().get(0);
    assertThat(first).as("%s", r.results()).isInstanceOf(JobResult.Faulted.class);
    assertThat(((JobResult.Faulted) first).fault().kind()).isEqualTo(FaultKind.EXCEPTION);
    assertThat(r.results().subList(1, 3)).as("b's and c's jobs: b allocates only once a's 12GiB are freed")
        .allMatch(JobResult.Completed.class::isInstance);
    assertThat(r.memory().live()).isZero();
    assertThat(r.leftover()).isZero();
    assertThat(r.heldAtShutdown()).isEmpty();
  }

  @Test
  void aSiblingWaitingForAnEventEndsBeforeTheLockIsGivenBack() {
    Design d = design(List.of("wait go"), List.of("spawn helper", "lock m", "alloc big 12GiB"), List.of("unlock m"));
    Cranked c = Cranked.start(d)
        .grant("a#0", ControlledScheduler.Result.MOVED) // spawn helper
        .grant("a#0/helper@1", ControlledScheduler.Result.BLOCKED) // wait go
        .grant("a#0", ControlledScheduler.Result.MOVED) // lock m
        .grant("a#0", ControlledScheduler.Result.MOVED) // alloc big 12GiB
        .grant("b#0", ControlledScheduler.Result.BLOCKED); // lock m
    c.sched().grant("a#0"); // kernel k: the injected exception fails a's job, its helper still waiting for go
    // b first whenever it can move: it locks m as soon as a gives it back, and allocates at once
    c.finish(List.of("b#0", "c#0", "a#0/helper@1", "a#0"));
  }

  @Test
  void aSiblingStillRunningAStepEndsBeforeTheLockIsGivenBack() {
    Design d = design(List.of("cpu work"), List.of("spawn helper", "lock m", "alloc big 12GiB"), List.of("unlock m"));
    Cranked c = Cranked.start(d)
        .grant("a#0", ControlledScheduler.Result.MOVED) // spawn helper
        .grant("a#0/helper@1", ControlledScheduler.Result.MOVED) // cpu work begins: the helper runs until its end
        .grant("a#0", ControlledScheduler.Result.MOVED) // lock m
        .grant("a#0", ControlledScheduler.Result.MOVED) // alloc big 12GiB
        .grant("b#0", ControlledScheduler.Result.BLOCKED); // lock m
    c.sched().grant("a#0"); // kernel k fails while the helper is inside cpu work
    c.finish(List.of("b#0", "c#0", "a#0/helper@1", "a#0"));
  }

  @Test
  void aSiblingWaitingForTheFailedThreadsLockIsCancelledOutOfItsWait() {
    Design d = design(List.of("lock m", "unlock m"), List.of("lock m", "alloc big 12GiB", "spawn helper"),
        List.of("unlock m", "join helper"));
    Cranked c = Cranked.start(d)
        .grant("a#0", ControlledScheduler.Result.MOVED) // lock m
        .grant("a#0", ControlledScheduler.Result.MOVED) // alloc big 12GiB
        .grant("a#0", ControlledScheduler.Result.MOVED) // spawn helper
        .grant("a#0/helper@1", ControlledScheduler.Result.BLOCKED) // lock m, which a holds
        .grant("b#0", ControlledScheduler.Result.BLOCKED); // lock m
    c.sched().grant("a#0"); // kernel k fails: a keeps m until its helper, which waits for m, has ended
    c.finish(List.of("b#0", "c#0", "a#0/helper@1", "a#0"));
  }

  @Test
  void aSiblingWaitingForALockHeldByAnotherJobWaitingForTheFailedThreadIsCancelledToo() {
    // the helper waits for n, which c holds while it waits for m, which a holds: a cannot wait for the helper
    // to end on its own, so the helper's wait is cancelled
    Design d = design(List.of("lock n", "unlock n"), List.of("lock m", "alloc big 12GiB", "spawn helper"),
        List.of("unlock m", "join helper"));
    Cranked c = Cranked.start(d)
        .grant("a#0", ControlledScheduler.Result.MOVED) // lock m
        .grant("a#0", ControlledScheduler.Result.MOVED) // alloc big 12GiB
        .grant("a#0", ControlledScheduler.Result.MOVED) // spawn helper
        .grant("c#0", ControlledScheduler.Result.MOVED) // lock n
        .grant("c#0", ControlledScheduler.Result.BLOCKED) // lock m, which a holds
        .grant("a#0/helper@1", ControlledScheduler.Result.BLOCKED) // lock n, which c holds
        .grant("b#0", ControlledScheduler.Result.BLOCKED); // lock m
    c.sched().grant("a#0"); // kernel k fails
    c.finish(List.of("b#0", "c#0", "a#0/helper@1", "a#0"));
  }

  @Test
  void inAFreeRunASiblingWaitingForTheFailedThreadsLockIsInterruptedOutOfItsWait() {
    Design d = design(List.of("lock m", "unlock m"), List.of("lock m", "alloc big 12GiB", "spawn helper"),
        List.of("unlock m", "join helper"));
    free(d, Map.of(
        "b#0 lock m", List.of("a#0 spawn helper"), // a holds m over big
        "c#0 lock n", List.of("a#0 spawn helper"),
        "a#0 kernel k uses big", List.of("a#0/helper@1 lock m", "b#0 lock m"))); // both wait for m when k fails
  }

  @Test
  void inAFreeRunASiblingWaitingForALockHeldByAnotherJobWaitingForTheFailedThreadIsInterruptedToo() {
    Design d = design(List.of("lock n", "unlock n"), List.of("lock m", "alloc big 12GiB", "spawn helper"),
        List.of("unlock m", "join helper"));
    free(d, Map.of(
        "b#0 lock m", List.of("a#0 spawn helper"),
        "c#0 lock n", List.of("a#0 spawn helper"),
        "a#0/helper@1 lock n", List.of("c#0 lock m"), // c holds n and waits for m
        "a#0 kernel k uses big", List.of("a#0/helper@1 lock n", "b#0 lock m")));
  }
}
