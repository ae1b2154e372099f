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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check} in a child JVM with a 48 MiB heap, on a search that needs far more: the verdict LIMIT with the
 * statistics so far and the heap named as the limit, exit 2, and no OutOfMemoryError stack trace.
 *
 * <p>Why without reductions: with them, single-lock at 8 workers is SAFE in 925 states and at 12 in 1,987, which any
 * heap holds, and the limit would go untested. The single-lock tests assert that the search stored many states before the heap
 * ran out, and the first that the same search has more than twice as many, so a future reduction that --no-por and
 * --no-symmetry leave on, and that makes it fit, fails here instead of leaving the limit untested.
 */
class CheckHeapLimitTest {
  /** Single-lock at 8 workers without reductions: over 2·10^7 states (1.1 GiB of state store); 262,144 fit in 48 MiB. */
  private static final String[] BIG_CHECK = {"check", design("single-lock"), "--threads", "gpu_worker=8", "--no-por",
      "--no-symmetry", "--search-threads", "2"};
  /** Fewer states than the child stores before its heap runs out (262,144 on Java 17), so that the store filled it. */
  private static final long STORED_AT_LEAST = 50_000;

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
    Matcher m = Pattern.compile("(?m)^search    ([0-9]+) states").matcher(c.out());
    assertThat(m.find()).isTrue();
    long stored = Long.parseLong(m.group(1));
    assertThat(stored).as("states stored before the heap ran out").isGreaterThanOrEqualTo(STORED_AT_LEAST);

    // the search needed more than the heap: here, with this JVM's heap, it goes past twice what the child stored
    List<String> args = new ArrayList<>(List.of(BIG_CHECK));
    args.addAll(List.of("--max-states", Long.toString(2 * stored)));
    CliTest.Run bigger = CliTest.run(args.toArray(String[]::new));
    assertThat(bigger.status()).as(bigger.describe()).isEqualTo(2);
    assertThat(bigger.out()).as("the search has more than %d states", 2 * stored)
        .containsPattern("(?m)^verdict   LIMIT$").contains("stopped at --max-states " + 2 * stored);
  }

  @Test
  @Timeout(150)
  void theJsonSaysTheHeapWasTheLimit() throws Exception {
    Child c = check("--json");
    assertThat(c.status()).as("exit status; stderr: %s", c.err()).isEqualTo(2);
    JsonNode j = new ObjectMapper().readTree(c.out());
    assertThat(j.get("verdict").asText()).isEqualTo("LIMIT");
    assertThat(j.get("limit").asText()).isEqualTo("heap");
    assertThat(j.get("searched_states").asLong()).isGreaterThanOrEqualTo(STORED_AT_LEAST);
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
