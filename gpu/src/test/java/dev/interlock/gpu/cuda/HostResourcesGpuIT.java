package dev.interlock.gpu.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import jcuda.driver.CUdeviceptr;
import org.junit.jupiter.api.Test;

/**
 * A device used by ever new threads holds as many streams and pinned buffers as threads ran at once: a long run ends
 * with what a short one ends with.
 */
class HostResourcesGpuIT {
  private static final long MIB = 1L << 20;

  /** Two workers; each job spawns a task (a thread of its own) that allocates and launches beside the worker. */
  private static Design spawning(int jobs) {
    return TestDesigns.parse("""
        design lanes
        vram 1GiB
        mutex m
        task helper
          alloc t 16MiB
          kernel k uses t
          free t
        role w x2 jobs %d
          spawn helper
          lock m
          alloc b 16MiB
          kernel k uses b
          free b
          unlock m
          join helper
        """.formatted(jobs));
  }

  private static CudaDevice.HostResources afterRun(int jobs) {
    Design d = spawning(jobs);
    try (CudaDevice gpu = CudaDevice.open(d.vram())) {
      RunReport r = new Engine(gpu, StepGate.FREE).run(d, "lanes", InterpretedPipeline::new);
      assertThat(r.completed()).isEqualTo(2L * jobs);
      CudaDevice.HostResources h = gpu.hostResources();
      System.out.printf("[interlock] %d jobs on %s: %s%n", 2 * jobs, gpu.name(), h);
      return h;
    }
  }

  @Test
  void aLongRunOfSpawningJobsHoldsNoMoreStreamsThanThreadsRanAtOnce() {
    Gpu.assumePresent();
    CudaDevice.HostResources shortRun = afterRun(5);
    CudaDevice.HostResources longRun = afterRun(1000);
    // 2 workers and their 2 helpers at once, the opening thread, and a thread that has finished but not yet ended
    assertThat(longRun.threadsServed()).isGreaterThanOrEqualTo(2000);
    assertThat(longRun.streams()).isLessThanOrEqualTo(8);
    assertThat(longRun.streams()).isLessThanOrEqualTo(shortRun.streams() + 3);
    assertThat(longRun.pinnedBytes()).isEqualTo(shortRun.pinnedBytes());
  }

  @Test
  void threadsThatCopyOneAfterAnotherShareOnePinnedStaging() throws InterruptedException {
    Gpu.assumePresent();
    try (CudaDevice gpu = CudaDevice.open(1L << 30)) {
      DeviceBuffer b = gpu.allocate("test", "b", MIB, false);
      CUdeviceptr p = gpu.pointer(b);
      long[] data = new long[1024];
      CudaDevice.HostResources before = gpu.hostResources();
      for (int i = 0; i < 100; i++) {
        Thread t = new Thread(() -> gpu.provingKernels().upload(p, data, 0, data.length));
        t.start();
        t.join();
      }
      CudaDevice.HostResources after = gpu.hostResources();
      System.out.printf("[interlock] 100 copying threads on %s: before %s, after %s%n", gpu.name(), before, after);
      assertThat(after.threadsServed()).isEqualTo(before.threadsServed() + 100);
      assertThat(after.streams()).isEqualTo(before.streams() + 1);
      assertThat(after.pinnedBytes()).isEqualTo(before.pinnedBytes() + Staging.BYTES);
      gpu.free(b);
    }
  }
}
