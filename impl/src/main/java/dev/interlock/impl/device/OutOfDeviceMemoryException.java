package dev.interlock.impl.device;

import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.ViolationKind;

/** An allocation that does not fit: CUDA_ERROR_OUT_OF_MEMORY. Carries the numbers at the failed call. */
public final class OutOfDeviceMemoryException extends DeviceException {
  private static final long serialVersionUID = 1L;

  private final long requested;
  private final long free;
  private final MemoryInfo memory;

  /** An allocation that the model's rules refuse, on a device without a driver (the simulated one). */
  public OutOfDeviceMemoryException(String what, long requested, long free, MemoryInfo memory) {
    this(what, requested, free, memory, null);
  }

  /** An allocation that the driver refused with {@code driverError} (null: no driver, as on the simulated device). */
  public OutOfDeviceMemoryException(String what, long requested, long free, MemoryInfo memory,
      DriverError driverError) {
    super(what + ": out of device memory: requested " + Sizes.format(requested) + ", " + Sizes.format(free) + " free of "
        + Sizes.format(memory.capacity()) + " (" + Sizes.format(memory.live()) + " live, "
        + Sizes.format(memory.cached()) + " cached)", driverError);
    this.requested = requested;
    this.free = free;
    this.memory = memory;
  }

  public long requested() {
    return requested;
  }

  /** Bytes free for this request at the call (capacity minus live bytes). */
  public long free() {
    return free;
  }

  public MemoryInfo memory() {
    return memory;
  }

  @Override
  public ViolationKind kind() {
    return ViolationKind.OOM;
  }
}
