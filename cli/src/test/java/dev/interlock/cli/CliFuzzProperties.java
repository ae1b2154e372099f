package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.fuzz.Fuzzer;
import dev.interlock.properties.fuzz.Mutant;
import dev.interlock.properties.fuzz.Mutations;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutated designs, traces, captures and mapping files through the commands that read them, in process: exit 0, 1 or 2
 * with a verdict, or 2 with one line {@code interlock: FILE...: message} on stderr, and never a stack trace. A sample of
 * {@code -Dinterlock.fuzz.count} (1/100 of it, at least 50) per command.
 */
class CliFuzzProperties {
  @TempDir
  Path tmp;

  /** Runs per command: a hundredth of the reader fuzzing's count, at least 50. */
  static int count() {
    return Math.max(50, Fuzzer.count() / 100);
  }

  /** One CLI run: exit status and what it printed. */
  record Run(int status, String out, String err) {}

  static Run cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    PrintWriter o = new PrintWriter(out);
    PrintWriter e = new PrintWriter(err);
    int status = Main.run(o, e, args);
    o.flush();
    e.flush();
    return new Run(status, out.toString(), err.toString());
  }

  /** The mutant written to a file in the temp dir (bytes as UTF-8, lone surrogates as '?'). */
  private Path write(String name, Mutant m) {
    try {
      Path p = tmp.resolve(name);
      Files.write(p, m.text().getBytes(StandardCharsets.UTF_8));
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Throws AssertionError unless the run gave a verdict or the one-line error about {@code file}. */
  static void allowed(Run r, Path file, Pattern verdict) {
    String where = "exit " + r.status + "\n--- out:\n" + Mutant.escape(r.out, 2000) + "\n--- err:\n" + Mutant.escape(r.err, 2000);
    assertThat(r.status).as(where).isBetween(0, 2);
    assertThat(r.err).as(where).doesNotContain("Exception").doesNotContain("Error").doesNotContain("\tat ")
        .doesNotContain("internal error");
    List<String> errors = r.err.lines().filter(l -> !l.contains(": warning: ")).toList();
    if (verdict.matcher(r.out).find()) {
      assertThat(errors).as(where).isEmpty();
      return;
    }
    assertThat(r.status).as(where).isEqualTo(2);
    assertThat(errors).as(where).hasSize(1);
    assertThat(errors.get(0)).as(where).startsWith("interlock: " + file + ":");
  }

  private void fuzz(String name, List<Mutations.Seed> seeds, Function<Mutant, Run> command, Function<Mutant, Path> file,
      String verdict) {
    Gen<Mutant> mutants = Mutations.of(seeds);
    long start = System.nanoTime();
    int[] runs = {0};
    PropertyRunner.assertHolds(name, mutants, m -> {
      runs[0]++;
      allowed(command.apply(m), file.apply(m), Pattern.compile(verdict, Pattern.MULTILINE));
      return true;
    }, Config.defaults(name).withTries(count()).withMaxShrinks(300));
    System.out.printf("[fuzz] %s: %d runs in %.1f s%n", name, runs[0], (System.nanoTime() - start) / 1e9);
  }

  @Test
  void checkOnMutatedDesignsGivesAVerdictOrThePositionedError() throws IOException {
    List<Mutations.Seed> seeds = new ArrayList<>(Fuzzer.seeds(Path.of("designs"), ".design"));
    fuzz("fuzz cli check", seeds, m -> cli("check", write("m.design", m).toString(), "--max-states", "2000",
        "--search-threads", "1", "--no-progress"), m -> tmp.resolve("m.design"), "^verdict ");
  }

  @Test
  void replayOnMutatedTracesGivesAVerdictOrThePositionedError() throws IOException {
    fuzz("fuzz cli replay", Fuzzer.seeds(Path.of("traces"), ".trace"), m -> cli("replay", write("m.trace", m).toString()),
        m -> tmp.resolve("m.trace"), "^(confirmed|diverged): ");
  }

  @Test
  void validateOnMutatedCapturesGivesAVerdictOrThePositionedError() throws IOException {
    List<Mutations.Seed> seeds = Fuzzer.seeds(Path.of("observe/src/test/resources/h200"), ".capture");
    fuzz("fuzz cli validate", seeds, m -> cli("validate", design(m.seed()), write("m.capture", m).toString()),
        m -> tmp.resolve("m.capture"), "^(CONFORMS|DIVERGES)");
  }

  /** The design a shipped capture ran. */
  private static String design(String capture) {
    String name = capture.contains("two-lock") ? "two-lock" : capture.contains("reservation") ? "reservation"
        : capture.contains("phase9") ? "cuzk/phase9" : "single-lock";
    return "designs/" + name + ".design";
  }
}
