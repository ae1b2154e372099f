package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static dev.interlock.cli.CliTest.parseJson;
import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress lines on stderr during a long check, only when asked for (or on a console), and Ctrl-C: the statistics so
 * far and exit 130, never a verdict. Ctrl-C is tested on a child JVM, sent SIGINT once it has printed progress.
 */
class CheckProgressTest {
  /** Single-lock at 10 workers: about half a minute of exhaustive search, ended by the interrupt long before. */
  private static final String[] LONG_CHECK = {"check", design("single-lock"), "--threads", "gpu_worker=10", "--no-por"}; // long without reduction

  private static final Pattern PROGRESS = Pattern.compile(
      "progress  [0-9.]+ s, gpu_worker=10 \\(the checked counts\\): depth ([0-9]+), ([0-9]+) states, [0-9]+ states/s, queue [0-9]+(, about [0-9.e]+ states estimated \\(depth about [0-9]+\\))?, heap [0-9]+ MiB used");
  private static final String TOO_LARGE = "interlock: warning: this search looks too large to finish";
  private static final Pattern STATISTICS = Pattern.compile(
      "interlock: interrupted after [0-9.]+ s, no verdict: searching gpu_worker=10 \\(the checked counts\\): depth ([0-9]+), ([0-9]+) states, [0-9]+ transitions");

  @TempDir
  Path tmp;

  /** What the child printed and how it ended. */
  private record Interrupted(int status, String out, List<String> err, long statesBefore) {}

  /**
   * Runs {@code check} in a child JVM with {@code --progress}, waits for its first progress line, sends it SIGINT and
   * waits for it to end.
   */
  private Interrupted interruptAfterProgress(String... extra) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(List.of(LONG_CHECK));
    command.addAll(List.of("--progress", "--progress-interval", "0.2"));
    command.addAll(List.of(extra));
    Path out = tmp.resolve("out.txt");
    Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).start();
    try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
      List<String> lines = new ArrayList<>();
      String line;
      Matcher first = null;
      while (first == null && (line = err.readLine()) != null) {
        lines.add(line);
        Matcher m = PROGRESS.matcher(line);
        first = m.matches() ? m : null;
      }
      assertThat(first).as("a progress line on stderr before the check ended: %s", lines).isNotNull();
      assumeThat(ignoresSigint(p.pid()))
          .as("the child JVM inherited SIGINT ignored (a background job of a non-interactive shell): Ctrl-C cannot reach it")
          .isFalse();
      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).inheritIO().start();
      assertThat(kill.waitFor()).isZero();
      while ((line = err.readLine()) != null) {
        lines.add(line);
      }
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      return new Interrupted(p.exitValue(), Files.readString(out), lines, Long.parseLong(first.group(2)));
    } finally {
      p.destroyForcibly();
    }
  }

  /** Whether the process ignores SIGINT (bit 2 of its SigIgn mask); false where /proc does not say. */
  private static boolean ignoresSigint(long pid) throws IOException {
    Path status = Path.of("/proc", Long.toString(pid), "status");
    if (!Files.exists(status)) {
      return false;
    }
    for (String l : Files.readAllLines(status)) {
      if (l.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(l.substring("SigIgn:".length()).strip(), 16) & 2) != 0;
      }
    }
    return false;
  }

  @Test
  @Timeout(180)
  void ctrlCPrintsTheStatisticsSoFarAndExits130WithoutAVerdict() throws Exception {
    Interrupted r = interruptAfterProgress();
    assertThat(r.status()).as("exit status; stderr: %s", r.err()).isEqualTo(130);
    assertThat(r.out()).as("stdout").isEmpty();
    String last = r.err().get(r.err().size() - 1);
    Matcher m = STATISTICS.matcher(last);
    assertThat(m.matches()).as("last stderr line: %s", last).isTrue();
    assertThat(Long.parseLong(m.group(2))).as("states so far").isGreaterThanOrEqualTo(r.statesBefore());
    assertThat(String.join("\n", r.err())).doesNotContain("SAFE").doesNotContainPattern("(?m)^verdict");
  }

  @Test
  @Timeout(180)
  @SuppressWarnings("unchecked")
  void underJsonCtrlCPrintsTheStatisticsAsOneJsonObjectOnStdoutAndProgressStaysOnStderr() throws Exception {
    Interrupted r = interruptAfterProgress("--json");
    assertThat(r.status()).as("exit status; stderr: %s", r.err()).isEqualTo(130);
    assertThat(r.out().lines().count()).as("stdout: %s", r.out()).isEqualTo(1);
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m).containsEntry("interrupted", true).containsEntry("threads", Map.of("gpu_worker", 10L))
        .containsEntry("checked_counts", true).doesNotContainKey("verdict");
    assertThat((String) m.get("error")).startsWith("interrupted after ");
    assertThat((Long) m.get("searched_states")).isGreaterThanOrEqualTo(r.statesBefore());
    assertThat(r.err()).allMatch(l -> PROGRESS.matcher(l).matches() || l.startsWith(TOO_LARGE),
        "every stderr line is a progress line, or the one estimate that the search will not fit");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aSearchLongerThanTwoSecondsPrintsProgressOnlyWithTheOptionAndNeverIntoTheJson() {
    // reservation, 8 workers, no reduction, one search thread: 2.9M states, several seconds, more than the 2 s after which
    // progress shows
    String[] check = {"check", design("reservation"), "--threads", "gpu_worker=8", "--no-por", "--search-threads", "1", "--json"};
    CliTest.Run with = run(CliTest.concat(check, "--progress", "--progress-interval", "0.1"));
    assertThat(with.status()).as(with.describe()).isZero();
    assertThat(with.outLines()).hasSize(1);
    Map<String, Object> withJson = (Map<String, Object>) parseJson(with.out());
    assertThat(withJson.get("verdict")).isEqualTo("SAFE");
    if (((Number) withJson.get("seconds")).doubleValue() > 2.5) {
      assertThat(with.errLines()).isNotEmpty();
    }
    assertThat(with.errLines())
        .allMatch(l -> l.matches("progress  [0-9.]+ s, gpu_worker=8 \\(the checked counts\\): depth [0-9]+, .* heap [0-9]+ MiB used"));

    CliTest.Run without = run(check); // tests have no console: no progress unless asked for
    assertThat(without.status()).as(without.describe()).isZero();
    Map<String, Object> withoutJson = (Map<String, Object>) parseJson(without.out());
    assertThat(((Number) withoutJson.get("seconds")).doubleValue()).as("a search long enough to have shown progress").isGreaterThan(2.0);
    assertThat(without.err()).isEmpty();
    withJson.remove("seconds");
    withoutJson.remove("seconds");
    assertThat(withoutJson).isEqualTo(withJson);
  }

  /** `--threads ROLE=any`: each exhaustive search of the bounded part prints progress lines naming its count. */
  @Test
  void anyThreadsPrintsProgressForEachBoundedSearch() {
    // head at 1..6 workers: several seconds on two cores, the last searches at 5 and 6 workers most of it
    long start = System.nanoTime();
    CliTest.Run r = run("check", "designs/cuzk/head.design", "--threads", "gpu_worker=any", "--progress",
        "--progress-interval", "0.1");
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat(r.status()).as(r.describe()).isZero(); // SAFE for every number: gpu_mtx isolates the memory
    assertThat(r.out()).contains("no DEADLOCK or LEAK up to 6");
    List<String> progress = r.errLines().stream().filter(l -> l.startsWith("progress")).toList();
    if (seconds > 3.0) {
      assertThat(progress).as("progress lines in %.1f s", seconds)
          .anyMatch(l -> l.matches("progress  [0-9.]+ s, gpu_worker=[0-9] \\(the checked counts\\): depth [0-9]+, [0-9]+ states, .*"));
    }
    assertThat(r.errLines()).allMatch(l -> l.startsWith("progress"), "stderr has progress lines only");
  }

  /** A search estimated past its limits says so once, early, on stderr; one that fits says nothing. */
  @Test
  void aSearchThatWillNotFitSaysSoWithItsEstimateBeforeItsLimit() {
    // single-lock at 8 workers without POR stores 1,947,690 states; the estimate passes 200,000 at a fifth of its depth
    CliTest.Run r = run("check", "designs/single-lock.design", "--threads", "gpu_worker=8", "--no-por", "--max-states",
        "200000");
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.out()).contains("verdict   LIMIT");
    List<String> warnings = r.errLines().stream().filter(l -> l.startsWith("interlock: warning: this search looks too large")).toList();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).matches("interlock: warning: this search looks too large to finish: about [0-9.]+e5 states"
        + " estimated at depth [0-9]+ of about 224, past its limits .*");
    CliTest.Run fits = run("check", "designs/single-lock.design", "--threads", "gpu_worker=8", "--no-por");
    assertThat(fits.status()).as(fits.describe()).isZero();
    assertThat(fits.err()).doesNotContain("too large");
  }

  @Test
  void badProgressAndRandomThreadOptionsAreInputErrors() {
    for (String[] bad : List.of(
        new String[] {"--progress-interval", "0"},
        new String[] {"--random", "5", "--random-threads", "0"},
        new String[] {"--random-threads", "2"})) {
      CliTest.Run r = run(CliTest.concat(new String[] {"check", design("single-lock")}, bad));
      assertThat(r.status()).as(r.describe()).isEqualTo(2);
      assertThat(r.out()).isEmpty();
      assertThat(r.errLines()).as(r.describe()).hasSize(1).allMatch(l -> l.startsWith("interlock: --"));
    }
  }
}
