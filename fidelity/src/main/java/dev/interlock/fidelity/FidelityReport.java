package dev.interlock.fidelity;

import dev.interlock.model.check.Verdict;
import java.util.Objects;

/**
 * One design's comparison: the model's verdict, what the device did, and whether they agree.
 *
 * @param source the design file as named
 * @param model  the model's verdict
 * @param device the device's outcome
 * @param agrees whether they agree: a replay to the same outcome (an OOM carrying the driver's error on a device that
 *               reports them), or every free run complete; a divergence, a failed run or no verdict never agrees
 */
public record FidelityReport(String source, ModelVerdict model, DeviceOutcome device, boolean agrees) {
  public FidelityReport {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(device, "device");
    boolean unsafe = model.verdict() instanceof Verdict.Unsafe;
    boolean safe = model.verdict() instanceof Verdict.Safe;
    boolean fits;
    if (device instanceof DeviceOutcome.Replayed r) {
      fits = unsafe && r.kind() == ((Verdict.Unsafe) model.verdict()).violation().kind()
          && r.length() == model.counterexample().orElseThrow().length();
    } else if (device instanceof DeviceOutcome.RunsComplete) {
      fits = safe && agrees;
    } else if (device instanceof DeviceOutcome.Diverged) {
      fits = unsafe && !agrees;
    } else if (device instanceof DeviceOutcome.RunFailed) {
      fits = safe && !agrees;
    } else {
      fits = !model.decided() && !agrees;
    }
    if (!fits) {
      throw new IllegalArgumentException(source + ": device outcome '" + device.text() + "' ("
          + (agrees ? "agrees" : "disagrees") + ") does not answer model verdict " + model.text());
    }
  }
}
