package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --device-calls} and {@code compare-capture} end to end on the simulated device. */
class CompareCaptureCommandTest {
  @TempDir
  Path tmp;

  @Test
  void runWritesItsDeviceCallsAndCompareCaptureChecksThem() throws Exception {
    Path calls = tmp.resolve("run.calls");
    CliTest.Run r = CliTest.run("run", "designs/single-lock.design", "--device-calls", calls.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    List<String> lines = Files.readAllLines(calls);
    assertThat(lines.get(0)).isEqualTo("# interlock capture v1");
    assertThat(lines.stream().filter(l -> l.contains(" alloc ") && l.contains("bytes=12884901888"))).hasSize(6);

    CliTest.Run same = CliTest.run("compare-capture", calls.toString(), calls.toString());
    assertThat(same.status()).as(same.describe()).isZero();
    assertThat(same.out()).startsWith("MATCHES: ");

    // the first 12 GiB allocation recorded as 13 GiB: a mismatch at that line on both sides
    List<String> changed = new ArrayList<>(lines);
    int at = 0;
    while (!changed.get(at).contains("bytes=12884901888")) {
      at++;
    }
    changed.set(at, changed.get(at).replace("bytes=12884901888", "bytes=13958643712"));
    Path capture = tmp.resolve("run.capture");
    Files.write(capture, changed);
    CliTest.Run diff = CliTest.run("compare-capture", calls.toString(), capture.toString());
    assertThat(diff.status()).as(diff.describe()).isEqualTo(1);
    assertThat(diff.out()).startsWith("MISMATCH at " + capture + ":" + (at + 1) + " / " + calls + ":" + (at + 1) + ": ")
        .contains("another size");

    CliTest.Run again = CliTest.run("run", "designs/single-lock.design", "--device-calls", calls.toString());
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains("exists; not overwritten");
  }

  @Test
  void badInputIsPositionedExit2() throws Exception {
    Path bad = tmp.resolve("bad.capture");
    Files.writeString(bad, "# interlock capture v1\n# pid=1 program=x clock=CLOCK_MONOTONIC start_ns=0\n5 7 alloc ptr=zz\n");
    CliTest.Run r = CliTest.run("compare-capture", bad.toString(), bad.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains(bad + ":3:");
  }
}
