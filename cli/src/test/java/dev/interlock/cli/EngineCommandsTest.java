package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The commands that run the reference engine: {@code run} and {@code replay --on impl}. */
class EngineCommandsTest {

  @Test
  void twoLockCounterexampleReproducesTheOomOnTheEngine() {
    for (String pipeline : new String[] {"interpreted", "hand-written"}) {
      CliTest.Run r = CliTest.run("replay", "traces/two-lock.oom.trace", "--on", "impl", "--pipeline", pipeline);
      assertThat(r.status()).as(r.out() + r.err()).isZero();
      assertThat(r.out()).startsWith("confirmed: traces/two-lock.oom.trace replays on designs/two-lock.design (the engine, " + pipeline)
          .contains("9 transitions end in OOM as recorded")
          .contains("on gpu_worker#1 failed at 'alloc staged 12GiB': OOM")
          .contains("[device: 12GiB used, 0B cached of 16GiB]");
    }
  }

  @Test
  void handledAndIgnoredAllocationFailuresReplayOnTheEngine() {
    CliTest.Run h = CliTest.run("replay", "traces/oom-fallback.overlap.trace", "--on", "impl");
    assertThat(h.status()).as(h.out() + h.err()).isZero();
    assertThat(h.out()).contains("5 transitions end in OVERLAP plan_tiles msm as recorded").doesNotContain("SWALLOWED");
    CliTest.Run i = CliTest.run("replay", "traces/oom-ignore.swallowed.trace", "--on", "impl");
    assertThat(i.status()).as(i.out() + i.err()).isZero();
    assertThat(i.out()).contains("4 transitions end in SWALLOWED_OOM as recorded")
        .contains("  SWALLOWED_OOM: gpu_worker#1 alloc d_temp 8GiB: out of device memory")
        .contains("on oom ignore: gpu_worker#1 goes on without d_temp");
  }

  @Test
  void aRunThatSwallowsAnOutOfMemoryNamesTheKernelsThatRanWithoutTheBufferAndExits1() {
    // one worker on 10 GiB: its 3 GiB input and 8 GiB scratch never fit together, whatever the timing
    CliTest.Run r = CliTest.run("run", "designs/oom-ignore.design", "--vram", "10GiB", "--threads", "gpu_worker=1");
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(1);
    assertThat(r.out()).contains("gpu_worker: 0 completed, 0 failed, 0 aborted, 1 ran on with an ignored OOM")
        .containsPattern("swallowed\\R  SWALLOWED_OOM: gpu_worker#0 alloc d_temp 8GiB: out of device memory")
        .contains("job 0: gpu_worker#0 kernel msm uses d_a d_temp: ran without d_temp")
        .contains("nothing live at shutdown");
  }

  /**
   * Whether a GPU ran the command; without one, checks that the command said why in one line (exit 2) and prints the
   * visible skip line for what could not be checked.
   */
  private static boolean ranOnGpu(CliTest.Run r, String option) {
    var why = dev.interlock.gpu.cuda.CudaDevice.unavailable();
    if (why.isEmpty()) {
      return true;
    }
    System.out.println("[interlock] GPU test skipped: " + why.get() + "; checked that " + option + " says so");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("interlock: " + option + ": ").doesNotContain("Exception");
    return false;
  }

  @Test
  void twoLockCounterexampleReplaysOnTheGpuWithTheDriversOomOrSaysWhyNot() {
    CliTest.Run r = CliTest.run("replay", "traces/two-lock.oom.trace", "--on", "gpu");
    if (ranOnGpu(r, "--on gpu")) {
      assertThat(r.status()).as(r.out() + r.err()).isZero();
      assertThat(r.out()).contains("with a VRAM budget of 16GiB").contains("9 transitions end in OOM as recorded")
          .contains("CUDA_ERROR_OUT_OF_MEMORY");
    }
  }

  @Test
  void runOnTheGpuKeepsSingleLockWithinItsBudgetOrSaysWhyNot() {
    CliTest.Run r = CliTest.run("run", "designs/single-lock.design", "--device", "gpu", "--jobs", "gpu_worker=5");
    if (ranOnGpu(r, "--device gpu")) {
      assertThat(r.status()).as(r.out() + r.err()).isZero();
      assertThat(r.out()).contains("with a VRAM budget of 16GiB").contains("gpu_worker: 15 completed, 0 failed")
          .contains("(within vram)");
    }
  }

  @Test
  void unknownDevicesAreInputErrors() {
    CliTest.Run r = CliTest.run("replay", "traces/two-lock.oom.trace", "--on", "fpga");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--on must be model, impl or gpu, got 'fpga'");
    CliTest.Run run = CliTest.run("run", "designs/single-lock.design", "--device", "fpga");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--device must be simulated or gpu, got 'fpga'");
  }

  @Test
  void singleLockRunsFiftyJobsPerWorkerWithoutFailure() {
    CliTest.Run r = CliTest.run("run", "designs/single-lock.design", "--jobs", "gpu_worker=50");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("jobs      gpu_worker: 150 completed, 0 failed, 0 aborted")
        .contains("peak 14GiB used of 16GiB vram (within vram); nothing live at shutdown");
  }

  @Test
  void aDeadlockingRunIsReportedAndDoesNotHang() throws Exception {
    java.nio.file.Path d = java.nio.file.Files.createTempFile("stuck", ".design");
    java.nio.file.Files.writeString(d, "design stuck\nvram 1GiB\nsemaphore s 0\nrole w x2\n  acquire s\n  release s\n");
    CliTest.Run r = CliTest.run("run", d.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).contains("deadlock  no thread can move").contains("w#0 at 'acquire s'").contains("2 failed");
  }

  @Test
  void handWrittenPipelineIsOnlyForShippedDesigns() throws Exception {
    java.nio.file.Path d = java.nio.file.Files.createTempFile("mine", ".design");
    java.nio.file.Files.writeString(d, "design mine\nvram 1GiB\nrole w\n  cpu x\n");
    CliTest.Run r = CliTest.run("run", d.toString(), "--pipeline", "hand-written");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("no hand-written pipeline for design mine");
  }
}
