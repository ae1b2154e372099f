package dev.interlock.gpu.cuda;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.device.DeviceBuffer;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.model.state.DeviceMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The model's memory rules (DeviceMemory) still hold on the real driver, with a 16 GiB budget. */
class PoolSemanticsGpuIT {
  private CudaDevice device;

  @BeforeEach
  void open() {
    Gpu.assumePresent();
    device = CudaDevice.open(16 * GIB);
    System.out.println("[interlock] GPU " + device.name() + ", budget 16GiB, free after ballast " + device.free() + " B");
  }

  @AfterEach
  void close() {
    if (device != null) {
      device.close();
    }
  }

  @Test
  void measuredFactsHold() {
    DeviceBuffer a = device.allocate("t", "a", 8 * GIB, true);
    device.free(a);
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

  @Test
  void failedAllocationsAndThePool() {
    DeviceBuffer p = device.allocate("t", "p", 15 * GIB, false);
    assertThatThrownBy(() -> device.allocate("t", "x", 6 * GIB, true)).isInstanceOf(OutOfDeviceMemoryException.class);
    System.out.println("[interlock] measured: failed async 6GiB with 15GiB plain live: cached " + device.memory().cached()
        + " B, driver free " + device.free() + " B");
    assertThat(device.memory().cached()).as("a failed async alloc grows the pool by the free heap").isEqualTo(GIB);
    device.trim();
    device.free(p);
    DeviceBuffer a = device.allocate("t", "a", 8 * GIB, true);
    device.free(a);
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

  @Test
  void randomSequencesAgreeWithTheModel() {
    long seed = Long.getLong("interlock.seed", 1);
    System.out.println("[interlock] PoolSemanticsGpuIT seed=" + seed);
    SplittableRandom rng = new SplittableRandom(seed);
    DeviceMemory model = DeviceMemory.empty(16 * GIB, 1);
    List<DeviceBuffer> live = new ArrayList<>();
    StringBuilder log = new StringBuilder();
    for (int step = 0; step < 300; step++) {
      int op = rng.nextInt(10);
      String what;
      if (op < 5) {
        long bytes = (1 + rng.nextInt(8)) * GIB;
        boolean async = rng.nextBoolean();
        Optional<DeviceMemory> next = model.alloc(bytes, async, 0);
        what = "alloc " + bytes / GIB + "GiB" + (async ? " async" : "");
        if (next.isEmpty()) {
          what += " -> model OOM";
          log.append(String.format("%3d %-28s%n", step, what));
          assertThatThrownBy(() -> device.allocate("t", "x", bytes, async)).as("step %d: model says OOM%n%s", step, log)
              .isInstanceOf(OutOfDeviceMemoryException.class);
          model = model.afterFailedAlloc(bytes, async, 0);
        } else {
          live.add(device.allocate("t", "x", bytes, async));
          model = next.get();
        }
      } else if (op < 9 && !live.isEmpty()) {
        DeviceBuffer b = live.remove(rng.nextInt(live.size()));
        what = "free " + b.bytes() / GIB + "GiB" + (b.async() ? " async" : "");
        device.free(b);
        model = model.free(b.bytes(), b.async(), 0);
      } else {
        what = "trim";
        device.trim();
        model = model.trim();
      }
      log.append(String.format("%3d %-28s model live %2d cached %2d | driver live %2d cached %2d%n", step, what, model.live() / GIB,
          model.cachedTotal() / GIB, device.memory().live() / GIB, device.memory().cached() / GIB));
      assertThat(device.memory().live()).as("step %d live%n%s", step, log).isEqualTo(model.live());
      assertThat(device.memory().cached()).as("step %d cached%n%s", step, log).isEqualTo(model.cachedTotal());
    }
  }
}
