package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Interlock's own GPU engine captured on the H200 (gpu/NOTES.md run 32): the device calls CudaDevice logged
 * ({@code run --device-calls}) against what the capture library saw of the same run, call for call.
 *
 * <p>The captures kept here are the device records and thread names of the full captures (capture/gpu-java-runs.sh
 * writes them as D-cuda.capture); the JVM's own lock records are left out, which the comparison ignores anyway.
 */
class H200EngineCallsTest {
  private static final String DIR = "observe/src/test/resources/h200/";

  private static DeviceCallMatch.Result compare(String name, String captureText) throws CaptureFormatException {
    Capture engine = CaptureFormat.read(Path.of(DIR + "engine-" + name + ".calls"));
    return DeviceCallMatch.compare(engine, CaptureFormat.parse(name + ".capture", captureText));
  }

  private static String captureText(String name) throws Exception {
    return Files.readString(Path.of(DIR + "engine-" + name + ".capture"));
  }

  @Test
  void singleLockMatchesCallForCallIncludingTheBallast() throws Exception {
    DeviceCallMatch.Result r = compare("single-lock", captureText("single-lock"));
    assertThat(r.mismatch()).isEmpty();
    assertThat(r.calls()).isEqualTo(421); // 6 x (12GiB + 2GiB), their frees, 12 touch launches, syncs, the ballast's blocks
    assertThat(r.threads()).isEqualTo(4);
  }

  @Test
  void twoLockMatchesCallForCallWithTheDriversRefusedAllocations() throws Exception {
    String text = captureText("two-lock");
    assertThat(text.lines().filter(l -> l.contains(" alloc ") && l.contains(" rc=2 "))).isNotEmpty();
    DeviceCallMatch.Result r = compare("two-lock", text);
    assertThat(r.mismatch()).isEmpty();
    assertThat(r.calls()).isEqualTo(397);
  }

  @Test
  void aCallMissingFromTheRealCaptureIsAMismatch() throws Exception {
    List<String> lines = new ArrayList<>(captureText("two-lock").lines().toList());
    int refused = -1;
    for (int i = 0; i < lines.size() && refused < 0; i++) {
      if (lines.get(i).contains(" alloc ") && lines.get(i).contains(" rc=2 ")) {
        refused = i;
      }
    }
    lines.remove(refused);
    DeviceCallMatch.Result r = compare("two-lock", String.join("\n", lines) + "\n");
    assertThat(r.matches()).isFalse();
    // the refused allocation was its worker's last device call: the capture's thread has none left where the engine's has it
    assertThat(r.mismatch()).get().satisfies(m -> {
      assertThat(m.captureLine()).isZero();
      assertThat(m.engineLine()).isPositive();
      assertThat(m.message()).contains("cuMemAlloc(12GiB) = 2").contains("has no more device calls");
    });
    assertThat(r.calls()).isEqualTo(396);
  }
}
