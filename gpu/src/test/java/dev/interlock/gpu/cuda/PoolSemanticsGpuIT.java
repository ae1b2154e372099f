package dev.interlock.gpu.cuda;

import static dev.interlock.model.design.Sizes.GIB;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.model.state.DeviceMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import jcuda.driver.CUevent;
import jcuda.driver.CUstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The model's memory rules ({@link DeviceMemory}) hold on the real driver, with a 16 GiB budget: each fact the model
 * relies on is measured here with the model's prediction beside the driver's figures at every step (printed as it
 * goes, so that a failing run still shows what the driver did). Streams are the test thread's own and extra ones of
 * the same context ({@link CudaDevice#onStream}); a stream's index is the model's.
 */
class PoolSemanticsGpuIT {
  private static final long VRAM = 16 * GIB;
  private static final long MAX = Long.MAX_VALUE;

  private CudaDevice device;
  private Twin twin;

  @BeforeEach
  void open() {
    Gpu.assumePresent();
    device = CudaDevice.open(VRAM);
    // the pool is the device's: settle and release what an earlier test left in it, so every test starts empty
    try {
      device.synchronize();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    device.trim();
    System.out.printf("[interlock] GPU %s, budget 16GiB, cuMemGetInfo free after ballast %d B (slack %.1f MiB)%n",
        device.name(), device.free(), device.slack() / (double) (1 << 20));
  }

  @AfterEach
  void close() {
    if (twin != null) {
      System.out.printf("[interlock] widest |cuMemGetInfo free - slack - model free| in this test: %.1f MiB"
          + " (tolerance %.0f MiB)%n", twin.widestGap / (double) (1 << 20), CudaDevice.FREE_TOLERANCE / (double) (1 << 20));
    }
    if (device != null) {
      device.close();
    }
  }

  // ------------------------------------------------------------------------------------ the facts of issue 12

  @Test
  void cuMemGetInfoReportsCachedPoolBytesAsUsed() {
    twin = new Twin(1, MAX);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    System.out.printf("[interlock] measured: 8GiB cached under threshold max: cuMemGetInfo free less slack %d B, the"
        + " model's free %d B%n", device.driverFree(), twin.model.free());
    assertThat(device.driverFree()).isLessThanOrEqualTo(8 * GIB + CudaDevice.FREE_TOLERANCE);
  }

  @Test
  void thePoolThresholdIsTheDriversAttribute() {
    assertThat(device.poolThreshold()).as("CUDA's default, and the model's").isZero();
    device.poolThreshold(4 * GIB);
    assertThat(device.poolThreshold()).isEqualTo(4 * GIB);
    device.poolThreshold(MAX);
    assertThat(device.poolThreshold()).as("max reads back as UINT64_MAX").isEqualTo(MAX);
    device.poolThreshold(0);
    assertThat(device.poolThreshold()).isZero();
  }

  @Test
  void thresholdZeroKeepsFreedBytesUntilTheirStreamOrTheContextSynchronizes() throws InterruptedException {
    twin = new Twin(2, 0);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    // a measured fact: time alone releases nothing (this waits out time, it synchronizes nothing)
    Thread.sleep(200);
    twin.step("200 ms later, no synchronization", "bytes freed with threshold 0 were released without a synchronization");
    twin.syncStream(1);
    twin.syncStream(0);
    DeviceBuffer b = twin.alloc("b", 8 * GIB, true, 1);
    twin.free(b, 1);
    twin.syncDevice();
  }

  @Test
  void thresholdMaxReleasesOnlyAtTrim() {
    twin = new Twin(2, MAX);
    DeviceBuffer k = twin.alloc("k", GIB, false, 0);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    twin.syncStream(0);
    twin.kernel(List.of(k), 0);
    twin.syncDevice();
    twin.eventSync(0);
    twin.trim();
    twin.free(k, 0);
  }

  @Test
  void aThresholdBetweenIsComparedWithReservedBytes() {
    twin = new Twin(1, 4 * GIB);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    twin.syncStream(0); // nothing live: released down to 4 GiB reserved
    twin.trim();
    DeviceBuffer six = twin.alloc("six", 6 * GIB, true, 0);
    DeviceBuffer two = twin.alloc("two", 2 * GIB, true, 0);
    twin.free(two, 0);
    twin.syncStream(0); // 6 GiB live async, 2 GiB cached: reserved 8 GiB > 4 GiB, so all 2 GiB go (reserved 6 GiB)
    twin.free(six, 0);
    twin.syncDevice();
  }

  @Test
  void aStreamSynchronizationReleasesOnlyTheBytesFreedOnThatStream() {
    twin = new Twin(2, 0);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0); // 8 GiB cached for s0
    DeviceBuffer b = twin.alloc("b", 4 * GIB, true, 1); // reuses 4 GiB of them
    twin.free(b, 1); // 4 GiB cached for s0, 4 GiB for s1
    twin.syncStream(1);
    twin.syncStream(0);
  }

  @Test
  void anAllocationOnAnotherStreamReusesCachedBytesWithoutSynchronizing() {
    twin = new Twin(2, 0);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    DeviceBuffer b = twin.alloc("b", 8 * GIB, true, 1);
    twin.step("after b", "the allocation on s1 grew the pool instead of reusing s0's cached bytes");
    twin.free(b, 1);
    twin.syncDevice();
  }

  @Test
  void aKernelsEndReleasesLikeItsStreamsSynchronization() {
    twin = new Twin(2, 0);
    DeviceBuffer k = twin.alloc("k", GIB, false, 0);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    twin.kernel(List.of(k), 1); // another stream's kernel: releases nothing of s0's
    twin.kernel(List.of(k), 0);
    twin.free(k, 0);
  }

  @Test
  void anEventSynchronizationReleasesLikeAStreamSynchronization() {
    twin = new Twin(2, 0);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    twin.eventSync(1);
    twin.eventSync(0);
  }

  @Test
  void aKeptBufferSurvivesAcrossJobs() {
    twin = new Twin(1, 0);
    DeviceBuffer kept = twin.alloc("d_a", 4 * GIB, true, 0);
    long[] pattern = new SplittableRandom(12).longs(4 * 4096).toArray();
    device.provingKernels().writeScalars(kept, 0, pattern);
    twin.copied(0);
    for (int job = 1; job <= 2; job++) {
      DeviceBuffer bc = twin.alloc("d_bc_" + job, 8 * GIB, true, 0);
      twin.kernel(List.of(kept, bc), 0);
      twin.free(bc, 0);
      twin.syncDevice();
      twin.trim();
      assertThat(device.isLive(kept)).as("the kept buffer after job %d", job).isTrue();
    }
    assertThat(device.provingKernels().readScalars(kept, 0, 4096)).as("the kept buffer's contents after two jobs")
        .isEqualTo(pattern);
    twin.copied(0);
    twin.free(kept, 0);
  }

  /**
   * Which other stream's cached bytes an async alloc takes when its own has none: the tightest fit (measured: with 2 and
   * 6 GiB cached on two streams, a 2 GiB alloc took the 2 GiB, not bytes of the most-cached stream).
   */
  @Test
  void anAsyncAllocTakesTheBestFittingOtherStreamsBytes() {
    twin = new Twin(3, 0);
    cache(new long[] {0, 2, 6});
    DeviceBuffer x = twin.alloc("x", 2 * GIB, true, 0); // the model takes s1's bytes: the best fit
    twin.syncStream(1);
    twin.step("after syncing s1", "if 4 GiB stayed cached, the driver took bytes of the most-cached stream s2, not s1's"
        + " 2 GiB block (the best fit) as the model does");
    twin.syncStream(2);
    twin.free(x, 0);
    twin.syncDevice();
  }

  /**
   * Measured in run 22, where the model and the driver part: with 6 and 2 GiB cached on s1 and s2 (freed in that
   * order), a 2 GiB alloc on s0 took s1's bytes, not the best fit on s2. With the first test, the driver took the bytes
   * freed first (or at the lowest address) both times; the model keeps bytes per stream, not per block, and cannot tell
   * which were freed first, so it takes the best fit. Only which stream's later synchronization releases what differs.
   */
  @Test
  void theDriverTakesTheBytesFreedFirstWhereTheModelTakesTheBestFit() {
    twin = new Twin(3, 0);
    cache(new long[] {0, 6, 2});
    DeviceBuffer x = twin.alloc("x", 2 * GIB, true, 0); // the model takes s2's bytes: the best fit
    twin.on(2, () -> {
      device.synchronizeStream("t");
      return null;
    });
    assertThat(device.memory().cached()).as("the driver took s1's bytes: syncing s2 released its 2 GiB").isEqualTo(4 * GIB);
    assertThat(twin.model.synchronizeStream(2).cachedTotal()).as("the model took s2's: nothing to release").isEqualTo(6 * GIB);
    twin = null;
    device.free(x);
    settle();
    device.trim();
  }


  @Test
  void anAsyncAllocTakesItsOwnStreamsBytesFirst() {
    twin = new Twin(2, 0);
    cache(new long[] {2, 6});
    DeviceBuffer x = twin.alloc("x", 2 * GIB, true, 0); // the model takes s0's own bytes
    twin.syncStream(1);
    twin.step("after syncing s1", "if 2 GiB stayed cached, x took s1's bytes rather than its own stream's");
    twin.free(x, 0);
    twin.syncDevice();
  }

  /** An allocation larger than any one stream's cache: the model takes bytes of two streams. */
  @Test
  void anAsyncAllocTakesBytesOfSeveralStreams() {
    twin = new Twin(3, 0);
    cache(new long[] {0, 2, 2});
    DeviceBuffer x = twin.alloc("x", 4 * GIB, true, 0);
    twin.step("after x", "if 4 GiB stayed cached (8 GiB reserved), the driver did not combine two streams' cached blocks"
        + " for one allocation and grew the pool instead");
    twin.free(x, 0);
    twin.syncDevice();
  }

  /**
   * Leaves {@code gib[s]} GiB cached for each stream s: all allocated first, then each freed on its stream (an alloc
   * after a free would take the freed bytes).
   */
  private void cache(long[] gib) {
    List<DeviceBuffer> made = new ArrayList<>();
    for (int s = 0; s < gib.length; s++) {
      made.add(gib[s] == 0 ? null : twin.alloc("c" + s, gib[s] * GIB, true, s));
    }
    for (int s = 0; s < gib.length; s++) {
      if (made.get(s) != null) {
        twin.free(made.get(s), s);
      }
    }
  }

  /** cuMemFree synchronizes the device implicitly; the model says that releases nothing of the pool. */
  @Test
  void aPlainFreeReleasesNothingOfThePool() {
    twin = new Twin(1, 0);
    DeviceBuffer p = twin.alloc("p", GIB, false, 0);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    twin.free(p, 0);
    twin.step("after the plain free", "if nothing stayed cached, cuMemFree's implicit synchronization released the pool:"
        + " the model needs that rule");
    twin.syncDevice();
  }

  /**
   * With no synchronization since the async free, a plain alloc cannot get the cached bytes back (measured: 12 GiB
   * plain failed with 8 GiB so cached on an empty 16 GiB budget); once a synchronization has settled them, it can.
   */
  @Test
  void aPlainAllocGetsBackOnlyCachedBytesASynchronizationHasSeenFreed() {
    twin = new Twin(1, 0);
    DeviceBuffer a = twin.alloc("a", 8 * GIB, true, 0);
    twin.free(a, 0);
    twin.allocFails("p", 12 * GIB, false, 0);
    twin.syncStream(0);
    DeviceBuffer p = twin.alloc("p", 12 * GIB, false, 0);
    twin.free(p, 0);
    device.poolThreshold(MAX);
    twin = new Twin(1, MAX);
    DeviceBuffer b = twin.alloc("b", 8 * GIB, true, 0);
    twin.free(b, 0);
    twin.syncStream(0);
    twin.step("after the sync under threshold max", "the settled 8 GiB stay cached");
    DeviceBuffer q = twin.alloc("q", 12 * GIB, false, 0);
    twin.free(q, 0);
  }

  /**
   * CUDA documents that cuMemPoolTrimTo may keep bytes whose async free the host has not seen complete; CudaDevice's
   * trim synchronizes its frees' events first. Printed: what a bare trim right after the free leaves.
   */
  @Test
  void trimReleasesEveryCachedByteRightAfterAnAsyncFree() {
    DeviceBuffer a = device.allocate("t", "a", 8 * GIB, true);
    device.free(a);
    device.pool().trim();
    System.out.printf("[interlock] measured: cuMemPoolTrimTo(0) right after cuMemFreeAsync, no synchronization:"
        + " %d B still cached%n", device.memory().cached());
    device.trim();
    assertThat(device.memory().cached()).isZero();
    twin = new Twin(1, 0);
    DeviceBuffer b = twin.alloc("b", 8 * GIB, true, 0);
    twin.free(b, 0);
    twin.trim();
  }

  // ------------------------------------------------------------------------------------ facts of earlier issues

  @Test
  void measuredFactsHold() {
    device.poolThreshold(MAX); // measured under max, before the threshold became the design's
    DeviceBuffer a = device.allocate("t", "a", 8 * GIB, true);
    device.free(a);
    settle();
    assertThat(device.memory().cached()).as("release threshold max: the pool keeps freed bytes").isEqualTo(8 * GIB);
    DeviceBuffer b = device.allocate("t", "b", 12 * GIB, false);
    assertThat(device.memory().cached()).as("a plain alloc that does not fit beside the cache releases it").isZero();
    assertThatThrownBy(() -> device.allocate("t", "c", 8 * GIB, true)).isInstanceOf(OutOfDeviceMemoryException.class)
        .hasMessageContaining("CUDA_ERROR_OUT_OF_MEMORY");
    device.free(b);
    DeviceBuffer c = device.allocate("t", "c", 8 * GIB, true);
    device.free(c);
    DeviceBuffer d = device.allocate("t", "d", 12 * GIB, true);
    assertThat(device.memory().cached()).as("async reuses the cache and grows the pool for the rest").isZero();
    device.free(d);
    device.trim();
    assertThat(device.memory().cached()).isZero();
    List<DeviceBuffer> blocks = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      blocks.add(device.allocate("t", "g" + i, GIB, false));
    }
    for (int i = 0; i < 16; i += 2) {
      device.free(blocks.get(i));
    }
    DeviceBuffer six = device.allocate("t", "six", 6 * GIB, false);
    device.free(six);
    assertThat(device.memory().live()).isEqualTo(8 * GIB);
  }

  /** A device synchronization: what settles the frees these tests made (measured under threshold max, so nothing goes). */
  private void settle() {
    try {
      device.synchronize();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Test
  void failedAllocationsAndThePool() {
    device.poolThreshold(MAX); // measured under max, before the threshold became the design's
    DeviceBuffer p = device.allocate("t", "p", 15 * GIB, false);
    assertThatThrownBy(() -> device.allocate("t", "x", 6 * GIB, true)).isInstanceOf(OutOfDeviceMemoryException.class);
    System.out.println("[interlock] measured: failed async 6GiB with 15GiB plain live: cached " + device.memory().cached()
        + " B, driver free " + device.free() + " B");
    assertThat(device.memory().cached()).as("a failed async alloc grows the pool by the free heap").isEqualTo(GIB);
    device.trim();
    device.free(p);
    DeviceBuffer a = device.allocate("t", "a", 8 * GIB, true);
    device.free(a);
    settle();
    DeviceBuffer q = device.allocate("t", "q", 4 * GIB, false);
    System.out.println("[interlock] measured: 8GiB cached, 4GiB plain live: cached " + device.memory().cached() + " B");
    assertThatThrownBy(() -> device.allocate("t", "y", 14 * GIB, false)).isInstanceOf(OutOfDeviceMemoryException.class);
    System.out.println("[interlock] measured: failed plain 14GiB with 8GiB cached, 4GiB live: cached " + device.memory().cached()
        + " B, driver free " + device.free() + " B");
    assertThat(device.memory().cached()).as("a failed plain alloc has released the cache").isZero();
    assertThatThrownBy(() -> device.allocate("t", "z", 14 * GIB, true)).isInstanceOf(OutOfDeviceMemoryException.class);
    System.out.println("[interlock] measured: failed async 14GiB after that: cached " + device.memory().cached()
        + " B, driver free " + device.free() + " B");
    assertThat(device.memory().cached()).isEqualTo(12 * GIB);
    device.free(q);
    device.trim();
  }

  /**
   * Random sequences of allocations, frees (on any stream, not only the allocating one), synchronizations, kernels and
   * trims agree with the model step by step; the seed is {@code -Dinterlock.seed} (default 1).
   */
  @ParameterizedTest(name = "threshold {0} GiB, {1} streams")
  // one stream: with several, which stream's cached bytes an alloc reuses is the driver's per-block choice (the bytes
  // freed first), which the model's per-stream figures cannot follow (theDriverTakesTheBytesFreedFirst...)
  @CsvSource({"max, 1", "0, 1", "4, 1"})
  void randomSequencesAgreeWithTheModel(String thresholdGib, int streams) {
    long seed = Long.getLong("interlock.seed", 1);
    long threshold = thresholdGib.equals("max") ? MAX : Long.parseLong(thresholdGib) * GIB;
    System.out.printf("[interlock] PoolSemanticsGpuIT random sequence: seed=%d threshold=%s streams=%d%n", seed,
        thresholdGib, streams);
    SplittableRandom rng = new SplittableRandom(seed);
    twin = new Twin(streams, threshold);
    List<DeviceBuffer> live = new ArrayList<>();
    for (int step = 0; step < 300; step++) {
      int op = rng.nextInt(14);
      int s = rng.nextInt(streams);
      if (op < 6) {
        long bytes = (1 + rng.nextInt(8)) * GIB;
        boolean async = rng.nextBoolean();
        if (twin.model.alloc(bytes, async, s).isEmpty()) {
          twin.allocFails("x" + step, bytes, async, s).ifPresent(live::add);
        } else {
          live.add(twin.alloc("x" + step, bytes, async, s));
        }
      } else if (op < 10 && !live.isEmpty()) {
        twin.free(live.remove(rng.nextInt(live.size())), s);
      } else if (op == 10) {
        twin.trim();
      } else if (op == 11) {
        twin.syncDevice();
      } else if (op == 12 && !live.isEmpty()) {
        twin.kernel(List.of(live.get(rng.nextInt(live.size()))), s);
      } else {
        twin.syncStream(s);
      }
    }
  }

  // ------------------------------------------------------------------------------------ the device and the model

  /**
   * The device and the model's device memory side by side: each call goes to both, on the same stream, and every step
   * compares their figures: live, cached and reserved bytes exactly, and cuMemGetInfo's free (less the slack) with the
   * model's free within {@link CudaDevice#FREE_TOLERANCE}. Each step is printed before it is checked.
   */
  private final class Twin {
    private final List<CUstream> streams = new ArrayList<>();
    private final StringBuilder log = new StringBuilder();
    private DeviceMemory model;
    private long widestGap;

    Twin(int streamCount, long threshold) {
      device.poolThreshold(threshold);
      model = DeviceMemory.empty(VRAM, streamCount).withThreshold(threshold);
      streams.add(device.stream());
      for (int i = 1; i < streamCount; i++) {
        streams.add(device.newStream());
      }
      step("threshold " + (threshold == MAX ? "max" : threshold / GIB + "GiB") + ", " + streamCount + " streams", null);
    }

    DeviceBuffer alloc(String name, long bytes, boolean async, int s) {
      String what = "s" + s + " alloc " + name + " " + bytes / GIB + "GiB" + (async ? " async" : "");
      DeviceMemory next = model.alloc(bytes, async, s)
          .orElseThrow(() -> new AssertionError("the model says " + what + " is out of memory\n" + log));
      DeviceBuffer b;
      try {
        b = on(s, () -> device.allocate("t", name, bytes, async));
      } catch (OutOfDeviceMemoryException e) {
        throw new AssertionError(what + ": the driver says out of memory (" + e.getMessage() + "), the model says it fits\n"
            + log, e);
      }
      model = next;
      step(what, null);
      return b;
    }

    /**
     * An allocation the model says fails. A plain one may still succeed on the driver when the GPU has already finished
     * the frees no synchronization has seen (the model takes the outcome where it has not: a check must consider it);
     * then the model follows with those frees completed, and the buffer is returned.
     */
    Optional<DeviceBuffer> allocFails(String name, long bytes, boolean async, int s) {
      String what = "s" + s + " alloc " + name + " " + bytes / GIB + "GiB" + (async ? " async" : "") + " -> OOM";
      Optional<DeviceBuffer> b = Optional.empty();
      try {
        b = Optional.of(on(s, () -> device.allocate("t", name, bytes, async)));
      } catch (OutOfDeviceMemoryException e) {
        model = model.afterFailedAlloc(bytes, async, s);
      }
      if (b.isPresent()) {
        Optional<DeviceMemory> completed = async ? Optional.empty() : model.withFreesCompleted().alloc(bytes, false, s);
        if (completed.isEmpty()) {
          throw new AssertionError(what + ": the model says out of memory, the driver allocated it\n" + log);
        }
        model = completed.get();
        step("s" + s + " alloc " + name + " " + bytes / GIB + "GiB (the driver had completed the pending frees)", null);
        return b;
      }
      step(what, null);
      return b;
    }

    void free(DeviceBuffer b, int s) {
      on(s, () -> {
        device.free(b, "t");
        return null;
      });
      model = model.free(b.bytes(), b.async(), s);
      step("s" + s + " free " + b.name() + " " + b.bytes() / GIB + "GiB" + (b.async() ? " async" : ""), null);
    }

    void syncStream(int s) {
      on(s, () -> {
        device.synchronizeStream("t");
        return null;
      });
      model = model.synchronizeStream(s);
      step("s" + s + " sync stream", null);
    }

    void syncDevice() {
      try {
        device.synchronize();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      model = model.synchronizeDevice();
      step("sync (device)", null);
    }

    void trim() {
      device.trim();
      model = model.trim();
      step("trim", null);
    }

    /** A kernel using {@code uses} launched on stream s and awaited there: its end is a synchronization of s. */
    void kernel(List<DeviceBuffer> uses, int s) {
      on(s, () -> {
        device.launch("t", "touch", uses, () -> {}).await();
        return null;
      });
      model = model.synchronizeStream(s);
      step("s" + s + " kernel uses " + uses.stream().map(DeviceBuffer::name).toList() + ", awaited", null);
    }

    /** An event recorded on stream s and synchronized on the host. */
    void eventSync(int s) {
      on(s, () -> {
        CUevent e = new CUevent();
        CudaDevice.check(cuEventCreate(e, 0), "cuEventCreate");
        CudaDevice.check(cuEventRecord(e, streams.get(s)), "cuEventRecord");
        CudaDevice.check(cuEventSynchronize(e), "cuEventSynchronize");
        cuEventDestroy(e);
        return null;
      });
      model = model.synchronizeStream(s);
      step("s" + s + " event recorded and synchronized", null);
    }

    /** A copy to or from the device on stream s just ended: it synchronized s (Staging waits for its copies). */
    void copied(int s) {
      model = model.synchronizeStream(s);
      step("s" + s + " copy (synchronizes its stream)", null);
    }

    private <T> T on(int s, Supplier<T> work) {
      return device.onStream(streams.get(s), work);
    }

    /** Logs and prints the step with both sides' figures, then checks them; {@code hint} says what a mismatch means. */
    void step(String what, String hint) {
      MemoryInfo m = device.memory();
      long reserved = device.poolReserved();
      long driverFree = device.driverFree();
      long gap = Math.abs(driverFree - model.free());
      widestGap = Math.max(widestGap, gap);
      String line = String.format("%-44s model live %6.3f cached %6.3f %s reserved %6.3f free %6.3f | driver live %6.3f"
          + " cached %6.3f reserved %6.3f free %6.3f (GiB)", what, gib(model.live()), gib(model.cachedTotal()),
          Arrays.toString(Arrays.stream(model.cached()).map(c -> c / GIB).toArray()), gib(model.liveAsync() + model.cachedTotal()),
          gib(model.free()), gib(m.live()), gib(m.cached()), gib(reserved), gib(driverFree));
      log.append(line).append('\n');
      System.out.println("[interlock]   " + line);
      String why = hint == null ? "" : "\n(" + hint + ")";
      assertThat(m.live()).as("live after %s%s%n%s", what, why, log).isEqualTo(model.live());
      assertThat(m.cached()).as("cached after %s%s%n%s", what, why, log).isEqualTo(model.cachedTotal());
      assertThat(reserved).as("pool reserved after %s%s%n%s", what, why, log).isEqualTo(model.liveAsync() + model.cachedTotal());
      assertThat(gap).as("|cuMemGetInfo free - slack - model free| after %s%s%n%s", what, why, log)
          .isLessThanOrEqualTo(CudaDevice.FREE_TOLERANCE);
    }

    private static double gib(long bytes) {
      return bytes / (double) GIB;
    }
  }
}
