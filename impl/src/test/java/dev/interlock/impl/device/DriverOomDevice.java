package dev.interlock.impl.device;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.api.DriverError;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.MemoryInfo;
import java.util.List;

/**
 * A simulated device that reports driver errors, as a real GPU does: its out-of-memory carries the driver's error
 * while its message does not name it, so that what reads the error from the message instead of the typed field cannot
 * find it here. Made with {@code carry} false, its out-of-memory carries none: a driver's error lost on the way.
 */
public final class DriverOomDevice implements Device {
  /** The driver error every out-of-memory of this device carries. */
  public static final DriverError OOM = new DriverError("CUDA_ERROR_OUT_OF_MEMORY", DeviceCall.OUT_OF_MEMORY);

  private final SimulatedDevice device;
  private final boolean carry;

  /** A device of {@code capacity} bytes whose out-of-memory carries {@link #OOM}. */
  public DriverOomDevice(long capacity) {
    this(capacity, true);
  }

  /** A device of {@code capacity} bytes whose out-of-memory carries {@link #OOM} only when {@code carry}. */
  public DriverOomDevice(long capacity, boolean carry) {
    this.device = new SimulatedDevice(capacity);
    this.carry = carry;
  }

  @Override
  public DeviceBuffer allocate(String owner, String name, long bytes, boolean async) {
    try {
      return device.allocate(owner, name, bytes, async);
    } catch (OutOfDeviceMemoryException e) {
      throw new OutOfDeviceMemoryException(owner + " alloc " + name, e.requested(), e.free(), e.memory(),
          carry ? OOM : null);
    }
  }

  @Override
  public boolean reportsDriverErrors() {
    return true;
  }

  @Override
  public void free(DeviceBuffer buffer, String thread) {
    device.free(buffer, thread);
  }

  @Override
  public void synchronizeStream(String thread) {
    device.synchronizeStream(thread);
  }

  @Override
  public void poolThreshold(long bytes) {
    device.poolThreshold(bytes);
  }

  @Override
  public void trim() {
    device.trim();
  }

  @Override
  public KernelRun launch(String owner, String name, List<DeviceBuffer> uses, Runnable work) {
    return device.launch(owner, name, uses, work);
  }

  @Override
  public void synchronize() throws InterruptedException {
    device.synchronize();
  }

  @Override
  public boolean trySynchronize() {
    return device.trySynchronize();
  }

  @Override
  public MemoryInfo memory() {
    return device.memory();
  }

  @Override
  public List<DeviceCall> deviceCalls() {
    return device.deviceCalls();
  }

  @Override
  public boolean isLive(DeviceBuffer buffer) {
    return device.isLive(buffer);
  }

  @Override
  public List<DeviceBuffer> liveBuffers(String owner) {
    return device.liveBuffers(owner);
  }

  @Override
  public String description() {
    return "simulated device with a driver's out-of-memory";
  }

  @Override
  public void reset() {
    device.reset();
  }

  @Override
  public void close() {
    device.close();
  }
}
