package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.sync.GatedMutex;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.sync.WaitRegistry;
import dev.interlock.model.design.Sizes;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watchdog's judgement of a thread registered as waiting for a mutex: blocked while another thread holds it, not
 * blocked once it is free.
 *
 * <p>Why: a thread woken for a mutex stays registered until it runs, which on a loaded machine can take longer than
 * two periods; had the watchdog counted it as blocked, a free run whose other threads had all finished was reported as
 * a DEADLOCK (seen in FreeRunTracesTest on single-lock, on 2 cores under load).
 */
@Timeout(10)
class WatchdogTest {

  private static void await(CountDownLatch l) {
    try {
      assertThat(l.await(5, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aThreadRegisteredForAFreeMutexIsNotBlockedAndOneForAHeldMutexIsWithItsHolderNamed() throws Exception {
    WaitRegistry waits = new WaitRegistry();
    GatedMutex m = new GatedMutex("m", StepGate.FREE, waits);
    CountDownLatch registered = new CountDownLatch(1);
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    // w is registered as waiting for m but parks elsewhere: as a thread woken for m that has not run yet
    Thread w = new Thread(() -> {
      waits.enter("lock m", m, 1);
      registered.countDown();
      await(done);
      waits.exit();
    }, "w#0");
    Thread h = new Thread(() -> {
      m.lock();
      held.countDown();
      await(done);
      m.unlock();
    }, "h#0");
    RunThreads threads = new RunThreads();
    threads.add(w, new RecordingProbe("w#0", StepGate.FREE, new EventLog(), new SimulatedDevice(Sizes.GIB), waits,
        Faults.NONE));
    Watchdog dog = new Watchdog(threads, waits, 10, message -> {});
    List<RunThreads.Entry> onlyW = threads.snapshot();
    try {
      w.start();
      await(registered);
      assertThat(dog.allLiveBlocked(onlyW)).as("m is free: w is about to take it").isFalse();
      assertThat(waits.describe(w)).isEqualTo("lock m");
      h.start();
      await(held);
      assertThat(dog.allLiveBlocked(onlyW)).as("h holds m").isTrue();
      assertThat(waits.describe(w)).isEqualTo("lock m (held by h#0)");
    } finally {
      done.countDown();
      w.join();
      h.join();
    }
  }
}
