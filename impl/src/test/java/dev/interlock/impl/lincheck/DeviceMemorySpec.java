package dev.interlock.impl.lincheck;

import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.DeviceMemory;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The sequential specification of a device's memory for Lincheck: the model's {@link DeviceMemory} on one stream (the
 * one the operations allocate and free on; kernels run on a stream that frees nothing), and the live buffers by id.
 *
 * <p>The one spec of SimulatedDeviceLincheckTest and of the GPU's CudaDeviceLincheckGpuIT. Sizes and figures are whole
 * GiB. Public, with public operations, because Lincheck calls them reflectively; equal states answer every future
 * call alike, which lets Lincheck's verifier merge them.
 */
public final class DeviceMemorySpec {
  /** The device's memory: 16 GiB. */
  public static final long VRAM = 16 * Sizes.GIB;
  /** The release thresholds the {@code threshold} operation sets, by level: 0, 4 GiB, 8 GiB and max. */
  public static final long[] THRESHOLDS = {0, 4 * Sizes.GIB, 8 * Sizes.GIB, Long.MAX_VALUE};

  private DeviceMemory memory = DeviceMemory.empty(VRAM, 1);
  private final Map<Integer, Boolean> asyncById = new TreeMap<>();
  private final Map<Integer, Long> bytesById = new TreeMap<>();
  private int allocated;

  public String alloc(int gib, boolean async) {
    long bytes = gib * Sizes.GIB;
    var after = memory.alloc(bytes, async, 0);
    if (after.isEmpty()) {
      memory = memory.afterFailedAlloc(bytes, async, 0);
      return "OOM";
    }
    memory = after.get();
    int id = ++allocated;
    asyncById.put(id, async);
    bytesById.put(id, bytes);
    return "b" + id;
  }

  public String free(int id) {
    if (!bytesById.containsKey(id)) {
      return "BAD_FREE";
    }
    memory = memory.free(bytesById.remove(id), asyncById.remove(id), 0);
    return "ok";
  }

  /** A kernel's end synchronizes the kernels' stream, which has nothing cached. */
  public String kernel(int id) {
    return bytesById.containsKey(id) ? "ok" : "USE_AFTER_FREE";
  }

  public String trim() {
    memory = memory.trim();
    return "ok";
  }

  public String sync() {
    memory = memory.synchronizeDevice();
    return "ok";
  }

  public String threshold(int level) {
    memory = memory.withThreshold(THRESHOLDS[level]);
    return "ok";
  }

  public long live() {
    return memory.live() / Sizes.GIB;
  }

  public long cached() {
    return memory.cachedTotal() / Sizes.GIB;
  }

  public long used() {
    return memory.used() / Sizes.GIB;
  }

  public long reportedFree() {
    return memory.free() / Sizes.GIB;
  }

  public int liveBuffers() {
    return bytesById.size();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeviceMemorySpec s && memory.equals(s.memory) && allocated == s.allocated
        && bytesById.equals(s.bytesById) && asyncById.equals(s.asyncById);
  }

  @Override
  public int hashCode() {
    return Objects.hash(memory, allocated, bytesById, asyncById);
  }
}
