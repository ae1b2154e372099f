package dev.interlock.model.state;

import dev.interlock.model.design.Sizes;
import java.util.Objects;

/**
 * A buffer live in a model state, named once for the model's messages and for every view of them.
 *
 * @param worker the role thread whose job or kept buffer it is ({@code role#i}), empty for a resident device buffer
 * @param buffer the buffer's name in the design
 * @param label  its unique name: {@code buffer} (resident), {@code role#i.buffer} (a kept buffer, or a job buffer where
 *               one job runs at a time) or {@code role#i@J.buffer} (a job buffer of job slot J)
 * @param bytes  its size
 * @param kept   whether it is a kept buffer ({@code alloc ... keep}), which outlives its job
 */
public record LiveBuffer(String worker, String buffer, String label, long bytes, boolean kept) {
  public LiveBuffer {
    Objects.requireNonNull(worker, "worker");
    Objects.requireNonNull(buffer, "buffer");
    Objects.requireNonNull(label, "label");
    if (bytes < 0) {
      throw new IllegalArgumentException(label + ": negative size " + bytes);
    }
  }

  /** {@code label=SIZE}, with {@code kept} for a kept buffer: as the model's OOM message lists it. */
  public String describe() {
    return label + "=" + Sizes.format(bytes) + (kept ? " kept" : "");
  }
}
