package dev.interlock.impl.api;

import dev.interlock.model.step.Names;
import java.util.Objects;

/**
 * A device allocation: the handle a cudaMalloc returns.
 *
 * <p>A pipeline keeps it to launch kernels on and to free; the device knows it by its id, and the
 * model by its name, which is why the name is the design's.
 *
 * @param id    unique per device, for identity
 * @param owner the thread that allocated it ({@code role#i})
 * @param name  the buffer's name in the design, e.g. {@code staged}
 * @param bytes its size
 * @param async whether it came from the memory pool (cudaMallocAsync)
 */
public record DeviceBuffer(long id, String owner, String name, long bytes, boolean async) {
  public DeviceBuffer {
    Objects.requireNonNull(owner, "owner");
    Names.require("buffer", name);
    if (bytes < 1) {
      throw new IllegalArgumentException("buffer " + name + " needs a positive size, got " + bytes);
    }
  }
}
