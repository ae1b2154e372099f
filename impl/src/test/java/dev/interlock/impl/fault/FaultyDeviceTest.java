package dev.interlock.impl.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The faulty device on its own: each device fault, the sticky poison, and the reopening. */
class FaultyDeviceTest {
  private final List<SimulatedDevice> opened = new ArrayList<>();

  private FaultyDevice device(String spec) {
    return new FaultyDevice(() -> {
      SimulatedDevice d = new SimulatedDevice(4 * Sizes.GIB);
      opened.add(d);
      return d;
    }, new Faults(FaultSpec.parse("--faults", spec), 1, 0));
  }

  @Test
  void anInjectedAllocationFailureAllocatesNothing() {
    FaultyDevice d = device("alloc@a:2");
    DeviceBuffer first = d.allocate("w#0", "a", Sizes.GIB, false);
    InjectedFault f = catchThrowableOfType(InjectedFault.class, () -> d.allocate("w#0", "a", Sizes.GIB, false));
    assertThat(f.fault().kind()).isEqualTo(FaultKind.ALLOC);
    assertThat(f.getMessage()).isEqualTo("injected alloc fault at a on " + Thread.currentThread().getName()
        + ": out of device memory (injected): w#0 alloc a 1GiB");
    assertThat(d.memory().live()).isEqualTo(Sizes.GIB);
    d.free(first);
    assertThat(d.memory().live()).isZero();
    // a real misuse stays the model's violation
    assertThat(catchThrowableOfType(BufferNotLiveException.class, () -> d.free(first)).kind()).isEqualTo(ViolationKind.BAD_FREE);
  }

  @Test
  void launchesOfTwoThreadsRunConcurrently() throws Exception {
    FaultyDevice d = device("kernel=0");
    CountDownLatch bothInside = new CountDownLatch(2);
    Callable<Boolean> launch = () -> {
      boolean[] met = {false};
      d.launchWith("k", () -> {
        bothInside.countDown();
        try {
          met[0] = bothInside.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return new KernelRun() {
          @Override
          public String name() {
            return "k";
          }

          @Override
          public void await() {}
        };
      }).await();
      return met[0];
    };
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Boolean> a = pool.submit(launch);
      Future<Boolean> b = pool.submit(launch);
      // under the device's monitor the second launch could not start until the first gave up waiting
      assertThat(a.get()).as("first launch saw the second inside").isTrue();
      assertThat(b.get()).as("second launch saw the first inside").isTrue();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aKernelFaultAtItsAwaitStillCompletesTheKernel() throws InterruptedException {
    for (long seed = 0; seed < 8; seed++) {
      FaultyDevice d = new FaultyDevice(() -> new SimulatedDevice(Sizes.GIB), new Faults(FaultSpec.parse("--faults", "kernel=1"), seed, 0));
      boolean[] ran = {false};
      try {
        KernelRun run = d.launch("w#0", "k", List.of(), () -> ran[0] = true);
        InjectedFault f = catchThrowableOfType(InjectedFault.class, run::await);
        assertThat(f.fault().detail()).isEqualTo("kernel k failed during execution (at its await)");
        assertThat(ran[0]).isTrue();
        run.await(); // a second await, from cleanup, returns
      } catch (InjectedFault f) {
        assertThat(f.fault().detail()).isEqualTo("kernel k failed to launch");
      }
      assertThat(d.trySynchronize()).as("no kernel left running").isTrue();
    }
  }

  @Test
  void aPoisonIsStickyUntilTheDeviceIsReopenedAndTheRunsBuffersSurvive() {
    FaultyDevice d = device("poison@b:1");
    DeviceBuffer resident = d.allocate(FaultyDevice.RUN_OWNER, "d0", Sizes.GIB, false);
    DeviceBuffer a = d.allocate("w#0", "a", Sizes.GIB, false);
    assertThat(catchThrowableOfType(InjectedFault.class, () -> d.allocate("w#0", "b", Sizes.GIB, false)).fault().kind())
        .isEqualTo(FaultKind.POISON);
    assertThat(d.poisoned()).isTrue();
    InjectedFault sticky = catchThrowableOfType(InjectedFault.class, () -> d.allocate("w#1", "c", 1, false));
    assertThat(sticky.fault().detail()).startsWith("device poisoned earlier");
    assertThat(catchThrowableOfType(InjectedFault.class, () -> d.free(a))).isNotNull();
    assertThat(catchThrowableOfType(InjectedFault.class, d::trySynchronize)).isNotNull();
    assertThat(d.isLive(a)).isFalse();
    assertThat(d.liveBuffers(null)).isEmpty();

    d.reopen();
    assertThat(d.poisoned()).isFalse();
    assertThat(d.reopens()).isEqualTo(1);
    assertThat(opened).hasSize(2);
    assertThat(opened.get(0).memory().live()).as("the old context's memory is freed").isZero();
    assertThat(d.isLive(resident)).as("the run's buffer is allocated again").isTrue();
    assertThat(d.memory().live()).isEqualTo(Sizes.GIB);
    assertThat(d.isLive(a)).isFalse();
    InjectedFault lost = catchThrowableOfType(InjectedFault.class, () -> d.launch("w#0", "k", List.of(a), () -> {}));
    assertThat(lost.fault().detail()).isEqualTo("kernel k uses a: the buffer was lost with a poisoned device's context");
    DeviceBuffer fresh = d.allocate("w#0", "a", Sizes.GIB, false);
    assertThat(fresh).isNotEqualTo(a);
    d.launch("w#0", "k", List.of(fresh, resident), () -> {}).await();
    d.free(fresh);
    d.free(resident);
    assertThat(d.current().liveBuffers(null)).isEmpty();
  }
}
