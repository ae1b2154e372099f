package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files too large for the memory: a 100 MB design or trace is refused with the one-line positioned error naming the
 * limit, and a capture larger than the heap can hold is the one-line error, never an OutOfMemoryError stack trace.
 */
class LargeInputsTest {
  @TempDir
  Path tmp;

  /** A 100 MB file, sparse: the limit looks at the size before reading anything. */
  private Path hundredMegabytes(String name) throws Exception {
    Path p = tmp.resolve(name);
    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
      f.setLength(100_000_000L);
    }
    return p;
  }

  @Test
  void checkAndReplayRefuseAHundredMegabyteFileWithTheLimitInOneLine() throws Exception {
    for (List<String> args : List.of(List.of("check", hundredMegabytes("big.design").toString()),
        List.of("replay", hundredMegabytes("big.trace").toString()))) {
      CliTest.Run r = CliTest.run(args.toArray(String[]::new));
      assertThat(r.status()).as(r.describe()).isEqualTo(2);
      assertThat(r.errLines()).as(r.describe()).containsExactly("interlock: " + args.get(1)
          + ":1:1: file of 95.4 MiB is larger than the limit of 64MiB (raise it with -Dinterlock.max-file-size=SIZE,"
          + " e.g. INTERLOCK_JAVA_OPTS=-Dinterlock.max-file-size=1GiB)");
    }
  }

  @Test
  @Timeout(120)
  void aCaptureLargerThanTheHeapIsTheOneLineError() throws Exception {
    List<String> lines = Files.readAllLines(Path.of("observe/src/test/resources/h200/single-lock.capture"));
    Path big = tmp.resolve("big.capture");
    try (Writer w = Files.newBufferedWriter(big, StandardCharsets.UTF_8)) {
      w.write(lines.get(0) + "\n" + lines.get(1) + "\n");
      String body = String.join("\n", lines.subList(2, lines.size())) + "\n";
      for (long written = 0; written < 40_000_000L; written += body.length()) {
        w.write(body);
      }
    }
    Path err = tmp.resolve("err.txt");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "validate", design("single-lock"), big.toString())
        .redirectOutput(tmp.resolve("out.txt").toFile()).redirectError(err.toFile()).start();
    try {
      assertThat(p.waitFor(100, TimeUnit.SECONDS)).isTrue();
      String stderr = Files.readString(err);
      assertThat(p.exitValue()).as(stderr).isEqualTo(2);
      assertThat(stderr.lines().toList()).hasSize(1);
      assertThat(stderr).startsWith("interlock: " + big + ":1:1: out of Java heap reading 38.").doesNotContain("Exception");
    } finally {
      p.destroyForcibly();
    }
  }
}
