package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.api.Worker;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job that ends holding a lock, then a poison: the lock's holder waits for the device to be reopened, which waits for
 * the jobs in flight, one of which waits for the lock.
 *
 * <p>Why: a role thread may keep a mutex from one job to the next (the model allows a job to end holding a lock; a
 * hand-written pipeline may release it in a later job), and after a poison it waits between jobs until the device is
 * reopened. A job in flight waiting for that mutex could then never end, and neither could the reopening: the poison
 * made a deadlock the design does not have. Such a job fails with the poison instead (as every job in flight does
 * after a poison), naming the holder, and the reopening goes on; where the holder never gives the lock back, the
 * watchdog's deadlock report and the shutdown report name it.
 *
 * <p>The order is forced with latches in the pipelines (each wait bounded): a takes m in its first job, then b's job,
 * in flight, goes to lock m, then c's allocation draws the poison, and only then does a's first job end, holding m.
 */
@Timeout(30)
class PoisonLockHolderTest {
  private static final Design DESIGN = TestDesigns.parse("""
      design carried
      vram 4GiB
      mutex m
      role a x1 jobs 2
        lock m
      role b x1 jobs 1
        lock m
        unlock m
      role c x1 jobs 1
        alloc p 1GiB
        free p
      """);

  /** The latches that order the three workers' first jobs. */
  private static final class Order {
    final CountDownLatch aHolds = new CountDownLatch(1);
    final CountDownLatch bStarted = new CountDownLatch(1);
    final CountDownLatch poisoned = new CountDownLatch(1);

    static void await(CountDownLatch l, String what) {
      try {
        if (!l.await(10, TimeUnit.SECONDS)) {
          throw new AssertionError("timed out waiting until " + what);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting until " + what, e);
      }
    }
  }

  /**
   * a's first job locks m and ends holding it once the device is poisoned; its later jobs unlock m when {@code
   * giveBack}, else end at once. b locks and unlocks m; c's first allocation draws the poison.
   */
  private static Function<Role, Pipeline> pipelines(Order o, boolean giveBack) {
    AtomicInteger aJobs = new AtomicInteger();
    AtomicInteger cJobs = new AtomicInteger();
    Pipeline a = (Worker w, dev.interlock.impl.api.Job job) -> {
      if (aJobs.getAndIncrement() == 0) {
        w.probe().step("lock m", () -> w.resources().mutex("m").lock());
        o.aHolds.countDown();
        Order.await(o.poisoned, "c's allocation has poisoned the device");
      } else if (giveBack) {
        w.probe().step("unlock m", () -> w.resources().mutex("m").unlock());
      }
      return null;
    };
    Pipeline b = (w, job) -> {
      Order.await(o.aHolds, "a holds m");
      o.bStarted.countDown();
      w.probe().step("lock m", () -> w.resources().mutex("m").lock());
      w.probe().step("unlock m", () -> w.resources().mutex("m").unlock());
      return null;
    };
    Pipeline c = (w, job) -> {
      boolean first = cJobs.getAndIncrement() == 0;
      if (first) {
        Order.await(o.bStarted, "a holds m and b's job is in flight");
      }
      try {
        w.probe().step("alloc p 1GiB", () -> w.device().allocate(w.name(), "p", Sizes.GIB, false));
      } finally {
        if (first) {
          o.poisoned.countDown();
        }
      }
      w.probe().step("free p", () -> w.device().free(w.device().liveBuffers(w.name()).get(0)));
      return null;
    };
    Map<String, Pipeline> byRole = Map.of("a", a, "b", b, "c", c);
    return role -> byRole.get(role.name());
  }

  private static RunReport run(FaultyDevice dev, boolean giveBack, int retries) {
    return new Engine(dev, StepGate.FREE, 50, new RetryPolicy(retries, 0, false)).run(DESIGN, "carried.design",
        pipelines(new Order(), giveBack));
  }

  private static FaultyDevice device() {
    return new FaultyDevice(() -> new SimulatedDevice(DESIGN.vram()),
        new Faults(FaultSpec.parse("--faults", "poison@p:1"), 1));
  }

  @Test
  void aJobWaitingForALockWhoseHolderWaitsForTheReopeningFailsWithThePoisonAndTheReopeningGoesOn() {
    FaultyDevice dev = device();
    RunReport r = run(dev, true, 1);
    assertThat(r.deadlock()).as("the poison made no deadlock: %s", r.results()).isEmpty();
    assertThat(dev.reopens()).isEqualTo(1);
    assertThat(r.results()).as("every job completed, after its retry for b's and c's").hasSize(4)
        .allMatch(JobResult.Completed.class::isInstance);
    List<JobResult.Faulted> retried = r.retried().stream().map(JobResult.Faulted.class::cast).toList();
    assertThat(retried).extracting(JobResult.Faulted::worker).containsExactlyInAnyOrder("b#0", "c#0");
    assertThat(retried).allMatch(f -> f.fault().kind() == FaultKind.POISON);
    JobResult.Faulted b = retried.stream().filter(f -> f.worker().equals("b#0")).findFirst().orElseThrow();
    assertThat(b.step()).isEqualTo("lock m");
    assertThat(b.fault().detail()).contains("device poisoned earlier (sticky device error", "mutex m", "held by a#0",
        "reopen");
    assertThat(r.heldAtShutdown()).as("a's second job gave m back").isEmpty();
    assertThat(dev.current().liveBuffers(null)).isEmpty();
  }

  @Test
  void aLockWhoseHolderNeverGivesItBackIsReportedByItsHolder() {
    FaultyDevice dev = device();
    RunReport r = run(dev, false, 1);
    assertThat(dev.reopens()).as("the reopening was not held up").isEqualTo(1);
    assertThat(r.deadlock()).as("b's retry waits for m, which a keeps after its last job: the design's deadlock")
        .hasValueSatisfying(d -> assertThat(d).contains("b#0 at 'lock m'", "lock m (held by a#0, ended)"));
    assertThat(r.retried()).as("b's first attempt failed with the poison, not held up by a").anyMatch(x ->
        x instanceof JobResult.Faulted f && f.worker().equals("b#0") && f.fault().kind() == FaultKind.POISON);
    assertThat(r.heldAtShutdown()).containsExactly("mutex m held by a#0");
  }
}
