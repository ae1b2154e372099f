package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check} in a child JVM with a 48 MiB heap, on a search that needs far more: the verdict LIMIT with the
 * statistics so far and the heap named as the limit, exit 2, and no OutOfMemoryError stack trace.
 */
class CheckHeapLimitTest {
  /** Single-lock at 8 workers without reductions: millions of states, a few hundred thousand fit in 48 MiB. */
  private static final String[] BIG_CHECK = {"check", design("single-lock"), "--threads", "gpu_worker=8", "--no-por",
      "--no-symmetry", "--search-threads", "2"};

  @TempDir
  Path tmp;

  private record Child(int status, String out, String err) {}

  private Child check(String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of(BIG_CHECK));
    args.addAll(List.of(extra));
    return run(args);
  }

  private Child run(List<String> args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx48m", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(args);
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the check ends").isTrue();
      return new Child(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      p.destroyForcibly();
    }
  }

  @Test
  @Timeout(150)
  void aSmallHeapEndsTheSearchWithLimitAndItsStatistics() throws Exception {
    Child c = check("--progress", "--progress-interval", "0.2");
    assertThat(c.status()).as("exit status; stdout: %s; stderr: %s", c.out(), c.err()).isEqualTo(2);
    assertThat(c.out()).containsPattern("(?m)^verdict   LIMIT$")
        .containsPattern("(?m)^          stopped when the Java heap \\([0-9]+ MiB\\) ran out before the search was exhaustive")
        .containsPattern("(?m)^search    [1-9][0-9]* states, [1-9][0-9]* transitions, [0-9.]+ s, ")
        .doesNotContain("SAFE");
    assertThat(c.err()).doesNotContain("Exception").doesNotContain("Error").doesNotContain("\tat ");
  }

  @Test
  @Timeout(150)
  void theJsonSaysTheHeapWasTheLimit() throws Exception {
    Child c = check("--json");
    assertThat(c.status()).as("exit status; stderr: %s", c.err()).isEqualTo(2);
    JsonNode j = new ObjectMapper().readTree(c.out());
    assertThat(j.get("verdict").asText()).isEqualTo("LIMIT");
    assertThat(j.get("limit").asText()).isEqualTo("heap");
    assertThat(j.get("searched_states").asLong()).isPositive();
    assertThat(j.get("searched_transitions").asLong()).isGreaterThanOrEqualTo(j.get("searched_states").asLong() - 1);
    assertThat(j.get("seconds").asDouble()).isPositive();
    assertThat(c.err()).doesNotContain("Exception").doesNotContain("Error").doesNotContain("\tat ");
  }

  /** With {@code --threads ROLE=any} the bounded searches behind the answer name the heap too, not --max-states. */
  @Test
  @Timeout(150)
  void anAnyCheckSaysTheHeapWasTheLimit() throws Exception {
    Child c = run(List.of("check", design("cuzk/head"), "--threads", "gpu_worker=any", "--no-por", "--no-symmetry"));
    assertThat(c.status()).as("exit status; stdout: %s; stderr: %s", c.out(), c.err()).isEqualTo(2);
    assertThat(c.out()).containsPattern("(?m)^verdict   LIMIT$")
        .containsPattern("(?m)^          stopped when the Java heap \\([0-9]+ MiB\\) ran out")
        .doesNotContain("--max-states 20000000");
    assertThat(c.err()).doesNotContain("Exception").doesNotContain("Error").doesNotContain("\tat ");
  }
}
