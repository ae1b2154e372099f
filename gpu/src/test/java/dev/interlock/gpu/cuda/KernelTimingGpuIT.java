package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.KernelTiming;
import dev.interlock.model.design.Sizes;
import dev.interlock.prover.field.Fr;
import dev.interlock.workload.NttKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * The device's kernel times, aligned to the host clock: each lies within the host's launch..await interval of its
 * launch, on its launching thread's stream, and ends after it starts.
 */
class KernelTimingGpuIT {
  /** Allowed beyond the clock anchor's own error: the GPU's and the host's clocks drift apart a little within a run. */
  private static final long TOLERANCE_NANOS = 500_000;

  /** A launch as the host saw it: just before the launch call, and just after its await returned. */
  private record HostSpan(String thread, String name, long before, long after) {}

  @Test
  void everyKernelTimingLiesWithinItsLaunchAndAwaitOnItsThreadsStream() throws Exception {
    Gpu.assumePresent();
    int threads = 3;
    int launches = 20;
    int logN = 12;
    try (CudaDevice gpu = CudaDevice.open(Sizes.GIB, new KernelScratch(logN, 1 << logN, threads))) {
      Map<String, List<HostSpan>> spans = new ConcurrentHashMap<>();
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Thread> workers = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < threads; t++) {
        long seed = 1000 + t;
        Thread w = new Thread(() -> {
          try {
            start.await();
            spans.put(Thread.currentThread().getName(), launches(gpu, launches, logN, seed));
          } catch (Throwable e) {
            failures.add(e);
          }
        }, "w#" + t);
        workers.add(w);
        w.start();
      }
      for (Thread w : workers) {
        w.join();
      }
      assertThat(failures).isEmpty();

      List<KernelTiming> timings = gpu.kernelTimings();
      Map<String, List<KernelTiming>> byStream = new HashMap<>();
      timings.forEach(k -> byStream.computeIfAbsent(k.stream(), s -> new ArrayList<>()).add(k));
      assertThat(byStream.keySet()).containsExactlyInAnyOrderElementsOf(spans.keySet());
      long tolerance = TOLERANCE_NANOS + gpu.clockAnchorError();
      long worst = 0;
      for (Map.Entry<String, List<HostSpan>> e : spans.entrySet()) {
        List<KernelTiming> k = byStream.get(e.getKey());
        List<HostSpan> h = e.getValue();
        assertThat(k).as(e.getKey()).hasSameSizeAs(h); // awaited in launch order on each thread
        for (int i = 0; i < h.size(); i++) {
          KernelTiming kt = k.get(i);
          HostSpan hs = h.get(i);
          assertThat(kt.name()).isEqualTo(hs.name());
          assertThat(kt.endNanos()).as("%s ends after it starts", kt).isGreaterThanOrEqualTo(kt.startNanos());
          assertThat(kt.startNanos()).as("%s starts after its launch call at %d", kt, hs.before())
              .isGreaterThanOrEqualTo(hs.before() - tolerance);
          assertThat(kt.endNanos()).as("%s ends before its await returned at %d", kt, hs.after())
              .isLessThanOrEqualTo(hs.after() + tolerance);
          worst = Math.max(worst, Math.max(hs.before() - kt.startNanos(), kt.endNanos() - hs.after()));
          if (i > 0) {
            assertThat(kt.startNanos()).as("one stream runs its launches in order").isGreaterThanOrEqualTo(k.get(i - 1).endNanos() - tolerance);
          }
        }
      }
      System.out.printf("[interlock] %d kernel timings on %s; worst excess beyond the host's launch..await: %d ns "
          + "(negative: all inside), clock anchor error %d ns, tolerance %d ns%n", timings.size(), gpu.name(), worst,
          gpu.clockAnchorError(), tolerance);
    }
  }

  /** Alternates touch kernels ({@link CudaDevice#launch}) and NTTs on the calling thread, timing each on the host. */
  private static List<HostSpan> launches(CudaDevice gpu, int count, int logN, long seed) {
    String me = Thread.currentThread().getName();
    DeviceBuffer buf = gpu.allocate(me, "data", (1L << logN) * 32, true);
    gpu.provingKernels().writeScalars(buf, 0, Fr.randomVector(new SplittableRandom(seed), 1 << logN));
    List<HostSpan> spans = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        long before = System.nanoTime();
        KernelRun k = i % 2 == 0
            ? gpu.launch(me, "touch", List.of(buf), () -> {})
            : gpu.provingKernels().ntt(me, buf, 0, logN, NttKind.FORWARD);
        k.await();
        long after = System.nanoTime();
        spans.add(new HostSpan(me, k.name(), before, after));
      }
    } finally {
      gpu.free(buf);
    }
    return spans;
  }
}
