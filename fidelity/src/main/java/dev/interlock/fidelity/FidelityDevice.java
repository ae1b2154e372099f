package dev.interlock.fidelity;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.device.SimulatedDevice;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * The device a comparison runs designs on: a name for reports and how to open one with a design's vram as its memory.
 * Whether an OOM must be the driver's own is the opened device's to say ({@link Device#reportsDriverErrors()}).
 *
 * @param name the device as reports name it, e.g. {@code simulated} or {@code gpu}
 * @param open opens a fresh device of the given bytes for one design; the comparison closes it
 */
public record FidelityDevice(String name, LongFunction<? extends Device> open) {
  /** The simulated device, which follows the model's memory rules; it logs its calls. */
  public static final FidelityDevice SIMULATED = new FidelityDevice("simulated", SimulatedDevice::new);

  public FidelityDevice {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(open, "open");
    if (name.isBlank()) {
      throw new IllegalArgumentException("a fidelity device needs a name");
    }
  }

  /** A fresh device of {@code vram} bytes. */
  public Device open(long vram) {
    return Objects.requireNonNull(open.apply(vram), () -> name + ": the opened device");
  }
}
