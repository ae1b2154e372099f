package dev.interlock.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.Faults;
import dev.interlock.model.design.Sizes;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The proving kernels with faults launch on several threads at once, as the kernels they wrap do. */
class FaultyProvingKernelsTest {
  /** Launches of the wrapped kernels that saw the other thread's launch inside. */
  private final AtomicInteger met = new AtomicInteger();

  /** Each kernel the wrapper launches, called with a buffer of the faulty device for all its buffers. */
  static Stream<Arguments> kernels() {
    return Stream.of(
        Arguments.of("ntt", (BiConsumer<ProvingKernels, DeviceBuffer>) (k, b) -> k.ntt(owner(), b, 0, 2, NttKind.FORWARD).await()),
        Arguments.of("ntt_h", (BiConsumer<ProvingKernels, DeviceBuffer>) (k, b) -> k.quotient(owner(), b, 0, 2, b).await()),
        Arguments.of("msm", (BiConsumer<ProvingKernels, DeviceBuffer>) (k, b) -> k.msm(owner(), b, 0, b, 0).await()),
        Arguments.of("msm_table", (BiConsumer<ProvingKernels, DeviceBuffer>) (k, b) -> k.msmTable(owner(), b, 0, b, 0, 2).await()),
        Arguments.of("msm with a table", (BiConsumer<ProvingKernels, DeviceBuffer>) (k, b) -> k.msm(owner(), b, 0, b, 0, b, 0).await()),
        Arguments.of("g2_msm", (BiConsumer<ProvingKernels, DeviceBuffer>) (k, b) -> k.g2Msm(owner(), b, 0, b, 0).await()));
  }

  private static String owner() {
    return Thread.currentThread().getName();
  }

  /**
   * Two threads launch the kernel at once through FaultyProvingKernels with faults drawn, over kernels whose launch waits
   * up to 10 s for the other thread's: each sees the other's inside (under the faulty device's monitor, the first waits
   * alone).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("kernels")
  void launchesOfTwoThreadsRunConcurrently(String kernel, BiConsumer<ProvingKernels, DeviceBuffer> launch) throws Exception {
    CountDownLatch bothInside = new CountDownLatch(2);
    SimulatedDevice sim = new SimulatedDevice(Sizes.GIB);
    FaultyProvingKernels faulty = new FaultyProvingKernels(() -> meetingAtLaunch(sim, bothInside),
        new Faults(FaultSpec.parse("--faults", "kernel=0,stall=1"), 1, 0));
    Runnable one = () -> {
      DeviceBuffer b = faulty.device().allocate(owner(), "data", 1024, false);
      launch.accept(faulty, b);
      faulty.device().free(b);
    };
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> a = pool.submit(one);
      Future<?> b = pool.submit(one);
      a.get();
      b.get();
    } finally {
      pool.shutdownNow();
    }
    assertThat(met).as("launches that saw the other thread's inside").hasValue(2);
    assertThat(faulty.device().faults().injected(FaultKind.STALL)).as("faults drawn for both launches").isEqualTo(2);
    assertThat(sim.memory().live()).isZero();
  }

  /**
   * Kernels on {@code device} whose every launch counts down {@code bothInside} and waits up to 10 s for it, counting in
   * {@link #met} the launches that saw it reach 0; the kernel itself does nothing.
   */
  private ProvingKernels meetingAtLaunch(SimulatedDevice device, CountDownLatch bothInside) {
    return (ProvingKernels) Proxy.newProxyInstance(ProvingKernels.class.getClassLoader(), new Class<?>[] {ProvingKernels.class},
        (proxy, m, args) -> {
          if (m.getName().equals("device")) {
            return device;
          }
          if (!KernelRun.class.isAssignableFrom(m.getReturnType())) {
            throw new UnsupportedOperationException(m.getName());
          }
          bothInside.countDown();
          if (bothInside.await(10, TimeUnit.SECONDS)) {
            met.incrementAndGet();
          }
          KernelRun run = new KernelRun() {
            @Override
            public String name() {
              return m.getName();
            }

            @Override
            public void await() {}
          };
          return MsmRun.class.isAssignableFrom(m.getReturnType()) ? MsmRun.of(run, () -> null) : run;
        });
  }
}
