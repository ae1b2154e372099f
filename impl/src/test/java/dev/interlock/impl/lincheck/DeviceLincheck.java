package dev.interlock.impl.lincheck;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.device.OutOfDeviceMemoryException;
import dev.interlock.model.design.Sizes;
import org.jetbrains.lincheck.datastructures.BooleanGen;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;

/**
 * The operations of a device's Lincheck test against the model's device ({@link DeviceMemorySpec}), on any
 * {@link Device}: the simulated one here, the CUDA one in gpu's tests, which adds what only the driver has.
 *
 * <p>Results are comparable with the specification's because buffers are named by the device's own ids, counted from
 * {@code firstId} (the last id before the invocation; the specification counts successful allocations from 1): alloc
 * answers the id ("b3") or "OOM"; free and kernel take an id (1..5) and look the buffer up among the live ones,
 * answering "ok", or BAD_FREE / USE_AFTER_FREE when no such buffer is live. A lookup that finds the buffer and a free
 * or launch that then finds it gone (freed by another thread in between) answer the same verdict, so each operation
 * still has one point where it takes effect. Sizes are whole GiB, and so are the figures live(), cached() and used()
 * report.
 *
 * <p>Public, as are its operations, because Lincheck calls them reflectively. Lincheck reads the {@code @Param}s of
 * the class that declares an operation, so they are declared here.
 */
@Param(name = "gib", gen = IntGen.class, conf = "1:12")
@Param(name = "async", gen = BooleanGen.class)
@Param(name = "id", gen = IntGen.class, conf = "1:5")
public abstract class DeviceLincheck {
  static final String OWNER = "lincheck";

  private final Device device;
  private final long firstId;

  /** Operations on {@code device}, whose buffers so far have ids up to {@code firstId}. */
  protected DeviceLincheck(Device device, long firstId) {
    this.device = device;
    this.firstId = firstId;
  }

  /** The device under test. */
  protected Device device() {
    return device;
  }

  /** Launches a kernel that uses {@code b}, on a stream that frees nothing, and waits for it. */
  protected abstract void kernelOn(DeviceBuffer b);

  @Operation
  public String alloc(@Param(name = "gib") int gib, @Param(name = "async") boolean async) {
    try {
      return "b" + (device.allocate(OWNER, "buf", gib * Sizes.GIB, async).id() - firstId);
    } catch (OutOfDeviceMemoryException e) {
      return "OOM";
    }
  }

  @Operation
  public String free(@Param(name = "id") int id) {
    DeviceBuffer b = live(id);
    if (b == null) {
      return "BAD_FREE";
    }
    try {
      device.free(b);
      return "ok";
    } catch (BufferNotLiveException e) {
      return e.kind().name();
    }
  }

  /** A kernel that uses buffer {@code id}; its end (a synchronization of a stream that frees nothing) releases nothing. */
  @Operation
  public String kernel(@Param(name = "id") int id) {
    DeviceBuffer b = live(id);
    if (b == null) {
      return "USE_AFTER_FREE";
    }
    try {
      kernelOn(b);
      return "ok";
    } catch (BufferNotLiveException e) {
      return e.kind().name();
    }
  }

  @Operation
  public String trim() {
    device.trim();
    return "ok";
  }

  /** A device-wide synchronization: waits out kernels that other threads are inside. */
  @Operation
  public String sync() throws InterruptedException {
    device.synchronize();
    return "ok";
  }

  @Operation
  public long live() {
    return device.memory().live() / Sizes.GIB;
  }

  @Operation
  public long cached() {
    return device.memory().cached() / Sizes.GIB;
  }

  @Operation
  public long used() {
    return device.memory().used() / Sizes.GIB;
  }

  @Operation
  public int liveBuffers() {
    return device.liveBuffers(null).size();
  }

  private DeviceBuffer live(int id) {
    for (DeviceBuffer b : device.liveBuffers(null)) {
      if (b.id() - firstId == id) {
        return b;
      }
    }
    return null;
  }
}
