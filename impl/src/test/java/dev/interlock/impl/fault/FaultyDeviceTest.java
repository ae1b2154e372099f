package dev.interlock.impl.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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

  /** Two threads' launchWith run their launches at once: the launch is not under the device's monitor. */
  @Test
  void launchesOfTwoThreadsRunConcurrently() throws Exception {
    FaultyDevice d = device("kernel=0,stall=1");
    assertBothInsideAtOnce(meet -> d.launchWith("k", () -> {
      meet.run();
      return new KernelRun() {
        @Override
        public String name() {
          return "k";
        }

        @Override
        public void await() {}
      };
    }).await());
    assertThat(d.faults().injected(FaultKind.STALL)).as("faults drawn for both launches").isEqualTo(2);
  }

  /**
   * Two threads' kernels launched through launch, on a device that runs a kernel's work in its launch, run at once: no
   * path into the wrapped device's launch holds this device's monitor.
   */
  @Test
  void kernelsOfTwoThreadsLaunchedThroughLaunchRunConcurrently() throws Exception {
    FaultyDevice d = new FaultyDevice(() -> workAtLaunch(new SimulatedDevice(4 * Sizes.GIB)),
        new Faults(FaultSpec.parse("--faults", "kernel=0,stall=1"), 1, 0));
    assertBothInsideAtOnce(meet -> {
      String w = Thread.currentThread().getName();
      DeviceBuffer b = d.allocate(w, "a", Sizes.GIB, false);
      d.launch(w, "k", List.of(b), meet).await();
      d.free(b);
    });
    assertThat(d.faults().injected(FaultKind.STALL)).as("faults drawn for both launches").isEqualTo(2);
    assertThat(d.memory().live()).isZero();
  }

  /**
   * Runs {@code launch} on two threads at once, giving each a step that waits up to 10 s for the other thread to reach its
   * own, and asserts that each saw the other's: with a monitor held around the step, the first would wait alone.
   */
  static void assertBothInsideAtOnce(Consumer<Runnable> launch) throws Exception {
    CountDownLatch bothInside = new CountDownLatch(2);
    Callable<Boolean> one = () -> {
      boolean[] met = {false};
      launch.accept(() -> {
        bothInside.countDown();
        try {
          met[0] = bothInside.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      return met[0];
    };
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Boolean> a = pool.submit(one);
      Future<Boolean> b = pool.submit(one);
      assertThat(a.get()).as("the first thread saw the second inside").isTrue();
      assertThat(b.get()).as("the second thread saw the first inside").isTrue();
    } finally {
      pool.shutdownNow();
    }
  }

  /** {@code d}, except that a launch runs the kernel's work before it returns (as a blocking launch would). */
  private static Device workAtLaunch(SimulatedDevice d) {
    return (Device) Proxy.newProxyInstance(Device.class.getClassLoader(), new Class<?>[] {Device.class}, (proxy, m, args) -> {
      try {
        Object r = m.invoke(d, args);
        if (m.getName().equals("launch")) {
          ((KernelRun) r).await();
        }
        return r;
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    });
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
