package dev.interlock.impl.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.DeviceMemory;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The simulated device's memory rules, buffer checks and synchronization, and its agreement with the model. */
@Timeout(30)
class SimulatedDeviceTest {
  private static final long GIB = Sizes.GIB;
  private static final long MIB = Sizes.MIB;

  private final SimulatedDevice device = new SimulatedDevice(16 * GIB);

  private DeviceBuffer alloc(String name, long bytes) {
    return device.allocate("w#0", name, bytes, false);
  }

  private DeviceBuffer allocAsync(String name, long bytes) {
    return device.allocate("w#0", name, bytes, true);
  }

  private void assertMemory(long live, long cached) {
    MemoryInfo m = device.memory();
    assertThat(m.live()).as("live").isEqualTo(live);
    assertThat(m.cached()).as("cached").isEqualTo(cached);
    assertThat(m.used()).isEqualTo(live + cached);
    assertThat(m.free()).isEqualTo(16 * GIB - live - cached);
  }

  // ---- memory rules ----

  @Test
  void allocationFailsExactlyWhenLivePlusRequestExceedsCapacity() {
    DeviceBuffer a = alloc("a", 12 * GIB);
    DeviceBuffer b = alloc("b", 4 * GIB); // exactly full is fine
    assertMemory(16 * GIB, 0);
    assertThatThrownBy(() -> alloc("c", 1)).isInstanceOf(OutOfDeviceMemoryException.class);
    device.free(b);
    assertThatThrownBy(() -> alloc("c", 4 * GIB + 1)).isInstanceOf(OutOfDeviceMemoryException.class);
    DeviceBuffer c = alloc("c", 4 * GIB);
    assertMemory(16 * GIB, 0);
    device.free(a);
    device.free(c);
    assertMemory(0, 0);
  }

  @Test
  void outOfMemoryCarriesRequestedFreeAndTheMemoryAtTheCall() {
    allocAsync("cache", 2 * GIB);
    device.free(device.liveBuffers(null).get(0)); // 2GiB cached
    alloc("staged", 12 * GIB); // 12 + 2 cached fits: the cache stays
    OutOfDeviceMemoryException e = catchThrowableOfType(OutOfDeviceMemoryException.class,
        () -> device.allocate("w#1", "staged", 12 * GIB, false));
    assertThat(e.requested()).isEqualTo(12 * GIB);
    assertThat(e.free()).as("capacity minus live: cached bytes count as free").isEqualTo(4 * GIB);
    assertThat(e.memory()).as("after the failed call").isEqualTo(new MemoryInfo(16 * GIB, 12 * GIB, 2 * GIB, 14 * GIB));
    assertThat(e.memory().free()).as("what cudaMemGetInfo calls free").isEqualTo(2 * GIB);
    assertThat(e.kind()).isEqualTo(ViolationKind.OOM);
    assertThat(e.violation().kind()).isEqualTo(ViolationKind.OOM);
    assertThat(e.getMessage()).isEqualTo("w#1 alloc staged 12GiB: out of device memory: requested 12GiB, 4GiB free of 16GiB "
        + "(12GiB live, 2GiB cached)");
    // as on the H200: the failed plain call could not release cached bytes whose free no synchronization has seen,
    // and allocated nothing
    assertMemory(12 * GIB, 2 * GIB);
    assertThat(device.liveBuffers("w#1")).isEmpty();
  }

  @Test
  void aPlainAllocGetsBackOnlyCachedBytesASynchronizationHasSeenFreed() {
    device.poolThreshold(Long.MAX_VALUE); // the pool keeps settled bytes, so the plain alloc has some to take back
    DeviceBuffer a = allocAsync("a", 8 * GIB);
    device.free(a);
    assertMemory(0, 8 * GIB);
    // 12 + 8 pending > 16: the driver cannot release bytes whose free no synchronization has seen (H200, driver 580)
    assertThatThrownBy(() -> alloc("b", 12 * GIB)).isInstanceOf(OutOfDeviceMemoryException.class);
    assertMemory(0, 8 * GIB);
    device.synchronizeStream("w#0");
    assertMemory(0, 8 * GIB);
    alloc("b", 12 * GIB); // 12 + 8 settled > 16: the driver releases the settled cache
    assertMemory(12 * GIB, 0);
  }

  @Test
  void plainAllocThatFitsBesideTheCacheKeepsIt() {
    device.free(allocAsync("a", 4 * GIB));
    alloc("b", 8 * GIB);
    assertMemory(8 * GIB, 4 * GIB);
    alloc("c", 4 * GIB); // 8 + 4 + 4 = 16: still fits
    assertMemory(12 * GIB, 4 * GIB);
  }

  @Test
  void asyncAllocReusesCachedBytesAndGrowsThePoolForTheRest() {
    device.free(allocAsync("a", 8 * GIB));
    assertMemory(0, 8 * GIB);
    allocAsync("b", 3 * GIB);
    assertMemory(3 * GIB, 5 * GIB);
    allocAsync("c", 6 * GIB); // reuses the 5 cached, grows by 1
    assertMemory(9 * GIB, 0);
  }

  @Test
  void asyncFreeCachesPlainFreeDoesNotAndTrimEmptiesTheCacheOnly() {
    DeviceBuffer a = allocAsync("a", 3 * GIB);
    DeviceBuffer p = alloc("p", 2 * GIB);
    DeviceBuffer b = allocAsync("b", 5 * GIB);
    device.free(a);
    assertMemory(7 * GIB, 3 * GIB);
    device.free(p);
    assertMemory(5 * GIB, 3 * GIB);
    device.trim();
    assertMemory(5 * GIB, 0);
    assertThat(device.liveBuffers(null)).containsExactly(b);
    device.free(b);
    assertMemory(0, 5 * GIB);
    device.trim();
    assertMemory(0, 0);
  }

  @Test
  void peakCountsCachedBytesAndNeverGoesDown() {
    assertThat(device.memory().peakUsed()).isZero();
    device.free(allocAsync("a", 8 * GIB));
    alloc("b", 2 * GIB);
    assertThat(device.memory().peakUsed()).isEqualTo(10 * GIB);
    device.trim();
    device.free(device.liveBuffers(null).get(0));
    alloc("c", GIB);
    assertThat(device.memory().peakUsed()).isEqualTo(10 * GIB);
    assertMemory(GIB, 0);
  }

  @Test
  void badArguments() {
    assertThatThrownBy(() -> new SimulatedDevice(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> alloc("a", 0)).isInstanceOf(IllegalArgumentException.class);
    assertMemory(0, 0);
  }

  // ---- buffers that are not live ----

  @Test
  void freeingABufferThatIsNotLiveIsBadFree() {
    DeviceBuffer a = alloc("a", GIB);
    device.free(a);
    BufferNotLiveException e = catchThrowableOfType(BufferNotLiveException.class, () -> device.free(a));
    assertThat(e.kind()).isEqualTo(ViolationKind.BAD_FREE);
    assertThat(e.getMessage()).contains("not live");
    assertThat(catchThrowableOfType(BufferNotLiveException.class, () -> device.free(null)).kind()).isEqualTo(ViolationKind.BAD_FREE);
    assertMemory(0, 0);
  }

  @Test
  void kernelUsingABufferThatIsNotLiveIsUseAfterFreeAndDoesNotRun() {
    DeviceBuffer a = alloc("a", GIB);
    DeviceBuffer b = alloc("b", GIB);
    device.free(b);
    boolean[] ran = new boolean[1];
    BufferNotLiveException e = catchThrowableOfType(BufferNotLiveException.class,
        () -> device.launch("w#0", "k", List.of(a, b), () -> ran[0] = true));
    assertThat(e.kind()).isEqualTo(ViolationKind.USE_AFTER_FREE);
    assertThat(e.getMessage()).startsWith("w#0 kernel k uses a buffer that is not live");
    assertThat(ran[0]).isFalse();
    assertThat(device.trySynchronize()).as("no kernel counts as running").isTrue();
    assertThatThrownBy(() -> new BufferNotLiveException(ViolationKind.OOM, "x")).isInstanceOf(IllegalArgumentException.class);
  }

  // ---- kernels and synchronization ----

  @Test
  void kernelLaunchReturnsAtOnceAndItsWorkRunsWhenAwaited() {
    DeviceBuffer a = alloc("a", GIB);
    boolean[] ran = new boolean[1];
    KernelRun k = device.launch("w#0", "ntt", List.of(a), () -> ran[0] = true);
    assertThat(ran[0]).as("an asynchronous launch does not wait for the work").isFalse();
    assertThat(k.name()).isEqualTo("ntt");
    assertThat(device.trySynchronize()).isFalse();
    k.await();
    assertThat(ran[0]).isTrue();
    assertThat(device.trySynchronize()).isTrue();
    k.await(); // a second await changes nothing
    assertThat(device.trySynchronize()).isTrue();
  }

  @Test
  void kernelWhoseWorkThrowsIsNotLeftRunning() {
    KernelRun k = device.launch("w#0", "k", List.of(), () -> {
      throw new IllegalStateException("boom");
    });
    assertThatThrownBy(k::await).hasMessage("boom");
    assertThat(device.trySynchronize()).isTrue();
  }

  @Test
  void synchronizeBlocksUntilEveryLaunchedKernelIsAwaited() throws Exception {
    KernelRun k1 = device.launch("w#0", "k1", List.of(), () -> {});
    KernelRun k2 = device.launch("w#1", "k2", List.of(), () -> {});
    CountDownLatch synced = new CountDownLatch(1);
    AtomicReference<Throwable> error = new AtomicReference<>();
    Thread syncer = new Thread(() -> {
      try {
        device.synchronize();
        synced.countDown();
      } catch (Throwable t) {
        error.set(t);
      }
    }, "syncer");
    syncer.start();
    awaitWaiting(syncer);
    assertThat(synced.getCount()).isOne();
    assertThat(device.trySynchronize()).isFalse();
    k1.await();
    assertThat(device.trySynchronize()).as("k2 still runs").isFalse();
    assertThat(synced.getCount()).isOne();
    k2.await();
    assertThat(synced.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(device.trySynchronize()).isTrue();
    syncer.join();
    assertThat(error.get()).isNull();
  }

  @Test
  void synchronizeReturnsAtOnceWhenNoKernelRuns() throws Exception {
    device.synchronize();
    assertThat(device.trySynchronize()).isTrue();
  }

  /** Waits until {@code t} waits on a monitor: it is parked inside synchronize(). */
  private static void awaitWaiting(Thread t) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (t.getState() != Thread.State.WAITING) {
      assertThat(t.isAlive()).as("%s ended instead of waiting", t.getName()).isTrue();
      assertThat(System.nanoTime()).as("%s never waited", t.getName()).isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  // ---- bookkeeping ----

  @Test
  void liveBuffersByOwnerInAllocationOrder() {
    DeviceBuffer x = device.allocate("a#0", "x", GIB, false);
    DeviceBuffer z = device.allocate("b#0", "z", GIB, true);
    DeviceBuffer y = device.allocate("a#0", "y", 2 * GIB, false);
    assertThat(device.liveBuffers("a#0")).containsExactly(x, y);
    assertThat(device.liveBuffers("b#0")).containsExactly(z);
    assertThat(device.liveBuffers("c#0")).isEmpty();
    assertThat(device.liveBuffers(null)).containsExactly(x, z, y);
    assertThat(List.of(x.id(), y.id(), z.id())).doesNotHaveDuplicates();
    assertThat(y).extracting(DeviceBuffer::owner, DeviceBuffer::name, DeviceBuffer::bytes, DeviceBuffer::async)
        .containsExactly("a#0", "y", 2 * GIB, false);
    device.free(x);
    assertThat(device.liveBuffers("a#0")).containsExactly(y);
  }

  @Test
  void resetFreesEverythingAndTheDeviceStaysUsable() {
    DeviceBuffer a = alloc("a", 4 * GIB);
    device.free(allocAsync("b", 4 * GIB));
    alloc("c", 4 * GIB);
    device.reset();
    assertMemory(0, 0);
    assertThat(device.liveBuffers(null)).isEmpty();
    assertThat(catchThrowableOfType(BufferNotLiveException.class, () -> device.free(a)).kind()).isEqualTo(ViolationKind.BAD_FREE);
    DeviceBuffer d = alloc("d", 16 * GIB);
    assertThat(d.id()).isNotEqualTo(a.id());
    assertMemory(16 * GIB, 0);
    device.close();
    assertMemory(0, 0);
  }

  // ---- concurrent use ----

  @Test
  void concurrentAllocationsNeverExceedCapacityAndAccountExactly() throws Exception {
    int threads = 4;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    AtomicReference<Throwable> error = new AtomicReference<>();
    for (int t = 0; t < threads; t++) {
      String owner = "w#" + t;
      long seed = t;
      Thread th = new Thread(() -> {
        SplittableRandom rnd = new SplittableRandom(seed);
        try {
          start.await();
          for (int i = 0; i < 2000; i++) {
            boolean async = rnd.nextBoolean();
            try {
              DeviceBuffer b = device.allocate(owner, "b", (1 + rnd.nextInt(6)) * GIB, async);
              MemoryInfo m = device.memory();
              if (m.live() > m.capacity()) {
                throw new AssertionError("over capacity: " + m);
              }
              device.free(b);
            } catch (OutOfDeviceMemoryException e) {
              // an async alloc fails only beyond the live bytes; a plain one also beside the pending bytes, which stay
              // cached after the failed call
              long blocking = e.memory().live() + (async ? 0 : e.memory().cached());
              if (blocking + e.requested() <= e.memory().capacity()) {
                throw new AssertionError("OOM although it fits: " + e.getMessage());
              }
            }
          }
        } catch (Throwable e) {
          error.compareAndSet(null, e);
        }
      }, owner);
      ts.add(th);
      th.start();
    }
    start.countDown();
    for (Thread th : ts) {
      th.join();
    }
    assertThat(error.get()).isNull();
    assertThat(device.memory().live()).isZero();
    assertThat(device.memory().peakUsed()).isLessThanOrEqualTo(16 * GIB);
    assertThat(device.liveBuffers(null)).isEmpty();
  }

  // ---- against the model ----

  @Test
  void agreesWithTheModelsDeviceMemoryOnRandomOperations() {
    String property = System.getProperty("interlock.seed", "");
    long base = property.isBlank() ? 0x5EED_D3F1CEL : Long.parseLong(property.strip());
    System.out.println("[interlock] SimulatedDeviceTest random operations seed=" + base + " (rerun with -Dinterlock.seed=" + base + ")");
    int ooms = 0;
    int reuses = 0;
    for (int run = 0; run < 40; run++) {
      long seed = base + run;
      SplittableRandom rnd = new SplittableRandom(seed);
      long vram = (1 + rnd.nextInt(16)) * GIB;
      SimulatedDevice dev = new SimulatedDevice(vram);
      DeviceMemory model = DeviceMemory.empty(vram, 1);
      List<DeviceBuffer> live = new ArrayList<>();
      for (int op = 0; op < 300; op++) {
        String where = "seed " + seed + " op " + op;
        int kind = rnd.nextInt(10);
        if (kind < 5) {
          boolean async = rnd.nextBoolean();
          long bytes = rnd.nextBoolean() ? (1 + rnd.nextInt(8)) * GIB : (1 + rnd.nextInt(4096)) * MIB;
          Optional<DeviceMemory> next = model.alloc(bytes, async, 0);
          if (next.isEmpty()) {
            ooms++;
            DeviceMemory before = model;
            OutOfDeviceMemoryException e = catchThrowableOfType(OutOfDeviceMemoryException.class,
                () -> dev.allocate("w#0", "b", bytes, async));
            assertThat(e).as("%s: the model says OOM for %s", where, Sizes.format(bytes)).isNotNull();
            assertThat(e.requested()).isEqualTo(bytes);
            assertThat(e.free()).as(where).isEqualTo(vram - before.live());
            model = model.afterFailedAlloc(bytes, async, 0);
          } else {
            if (async && model.cachedTotal() > 0) {
              reuses++;
            }
            live.add(dev.allocate("w#0", "b", bytes, async));
            model = next.get();
          }
        } else if (kind < 9 && !live.isEmpty()) {
          DeviceBuffer b = live.remove(rnd.nextInt(live.size()));
          dev.free(b);
          model = model.free(b.bytes(), b.async(), 0);
        } else {
          dev.trim();
          model = model.trim();
        }
        MemoryInfo m = dev.memory();
        assertThat(m.live()).as("%s live", where).isEqualTo(model.live());
        assertThat(m.cached()).as("%s cached", where).isEqualTo(model.cachedTotal());
        assertThat(m.used()).as("%s used", where).isEqualTo(model.used());
        assertThat(m.peakUsed()).as(where).isGreaterThanOrEqualTo(m.used()).isLessThanOrEqualTo(vram);
      }
    }
    assertThat(ooms).as("the operations reach out of memory").isPositive();
    assertThat(reuses).as("the operations reuse cached bytes").isPositive();
  }
}
