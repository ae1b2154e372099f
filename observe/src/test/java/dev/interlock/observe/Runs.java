package dev.interlock.observe;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.JitterGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Engine runs of designs written as captures, for tests without a GPU. */
final class Runs {
  private Runs() {}

  static String text(String designFile) {
    try {
      return Files.readString(Path.of(designFile));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static Design design(String designFile) {
    try {
      return DesignParser.parse(designFile, text(designFile));
    } catch (DesignException e) {
      throw new AssertionError(e);
    }
  }

  /** Runs the design on the simulated device with jitter seeded by {@code seed}. */
  static RunReport run(Design d, long seed) {
    return new Engine(new SimulatedDevice(d.vram()), new JitterGate(seed, 30), 200).run(d, d.name() + ".design", InterpretedPipeline::new);
  }

  static List<CaptureEvent> records(Design d, RunReport r, boolean named) {
    return CaptureWriter.records(d, r.events(), named);
  }

  static Capture capture(List<CaptureEvent> records) {
    try {
      return CaptureFormat.parse("run.capture", CaptureWriter.text(records));
    } catch (CaptureFormatException e) {
      throw new AssertionError(e);
    }
  }
}
