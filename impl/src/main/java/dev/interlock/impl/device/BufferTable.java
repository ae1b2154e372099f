package dev.interlock.impl.device;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.model.state.ViolationKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A device's live buffers, each with what the device keeps for it ({@code H}: a device pointer, or nothing), and
 * the rules the model names for them: freeing a buffer that is not live is BAD_FREE, using one is USE_AFTER_FREE.
 *
 * <p>Every device holds one; it is not thread-safe on its own: the device calls it under its own monitor.
 *
 * @param <H> what the device keeps per buffer
 */
public final class BufferTable<H> {
  private final Map<Long, Entry<H>> live = new LinkedHashMap<>();
  private long liveBytes;
  private long nextId = 1;

  /** A live buffer and what the device keeps for it. */
  public record Entry<H>(DeviceBuffer buffer, H handle) {}

  /** Registers a new allocation and returns its buffer, with an id unique on this device. */
  public DeviceBuffer add(String owner, String name, long bytes, boolean async, H handle) {
    DeviceBuffer b = new DeviceBuffer(nextId++, owner, name, bytes, async);
    live.put(b.id(), new Entry<>(b, handle));
    liveBytes += bytes;
    return b;
  }

  /**
   * Removes a buffer that is being freed and returns what the device kept for it.
   *
   * @throws BufferNotLiveException (BAD_FREE) when it is not live
   */
  public H remove(DeviceBuffer buffer) {
    Entry<H> e = buffer == null ? null : live.remove(buffer.id());
    if (e == null) {
      throw new BufferNotLiveException(ViolationKind.BAD_FREE, "free of a buffer that is not live: " + buffer);
    }
    liveBytes -= buffer.bytes();
    return e.handle();
  }

  /**
   * What the device keeps for a buffer that is about to be used.
   *
   * @param what who uses it, for the message, e.g. {@code "gpu_worker#0 kernel ntt_msm uses"}
   * @throws BufferNotLiveException (USE_AFTER_FREE) when it is not live
   */
  public H require(DeviceBuffer buffer, String what) {
    Entry<H> e = buffer == null ? null : live.get(buffer.id());
    if (e == null) {
      throw new BufferNotLiveException(ViolationKind.USE_AFTER_FREE, what + " a buffer that is not live: " + buffer);
    }
    return e.handle();
  }

  /** Whether {@code buffer} is live here. */
  public boolean isLive(DeviceBuffer buffer) {
    Entry<H> e = buffer == null ? null : live.get(buffer.id());
    return e != null && e.buffer().equals(buffer);
  }

  /** Live buffers in allocation order, only those of {@code owner} unless it is null. */
  public List<DeviceBuffer> buffers(String owner) {
    List<DeviceBuffer> out = new ArrayList<>();
    for (Entry<H> e : live.values()) {
      if (owner == null || e.buffer().owner().equals(owner)) {
        out.add(e.buffer());
      }
    }
    return out;
  }

  /** Bytes in live buffers. */
  public long liveBytes() {
    return liveBytes;
  }

  /** Forgets every buffer (the device has released them all). */
  public void clear() {
    live.clear();
    liveBytes = 0;
  }
}
