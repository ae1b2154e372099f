package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code interlock} command line end to end, through {@link Main#run}. */
class CliTest {
  private static final String OOM_MESSAGE =
      "gpu_worker#1 alloc staged 12GiB: 12GiB live + 12GiB requested > 16GiB vram (live: gpu_worker#0.staged=12GiB)";

  /** Reads exactly one JSON value, no duplicate keys: objects as LinkedHashMaps (key order kept), integers as Longs. */
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(DeserializationFeature.USE_LONG_FOR_INTS, DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  @TempDir
  Path tmp;

  /** What one CLI run printed and returned. */
  record Run(int status, String out, String err) {
    List<String> outLines() {
      return out.lines().collect(Collectors.toList());
    }

    List<String> errLines() {
      return err.lines().collect(Collectors.toList());
    }

    String describe() {
      return "exit " + status + "\n--- out:\n" + out + "--- err:\n" + err;
    }
  }

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    PrintWriter o = new PrintWriter(out);
    PrintWriter e = new PrintWriter(err);
    int status = Main.run(o, e, args);
    o.flush();
    e.flush();
    return new Run(status, out.toString(), err.toString());
  }

  static Object parseJson(String text) {
    try {
      return JSON.readValue(text, Object.class);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not one JSON value: " + text, e);
    }
  }

  /** A shipped design's path, as a user types it from where the tests run. */
  static String design(String name) {
    return TestDesigns.path(name).toString();
  }

  static String[] args(String... a) {
    return a;
  }

  static String[] concat(String[] a, String... b) {
    String[] r = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /** The lines of the output that are trace step lines: index first. */
  static List<String> stepLines(String text) {
    return text.lines().filter(l -> l.strip().matches("[0-9]+\\s.*")).collect(Collectors.toList());
  }

  /** The trace printed at the end of a text report, from its magic line on. */
  static String printedTrace(String out) {
    int at = out.indexOf(TraceFormat.MAGIC);
    assertThat(at).as("trace in output:\n%s", out).isGreaterThanOrEqualTo(0);
    return out.substring(at);
  }

  // ---- check: verdicts ----

  @Test
  void twoLockIsOomWithANineTransitionCounterexampleAtTwoWorkers() throws Exception {
    Run r = run("check", design("two-lock"));
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .contains("design    two-lock (" + design("two-lock") + ")")
        .contains("checked   vram 16GiB, gpu_worker x3 jobs 2")
        .contains("verdict   OOM")
        .contains("          " + OOM_MESSAGE)
        .contains("minimal   gpu_worker=2 ")
        .contains("counterexample (9 transitions, gpu_worker=2)");
    List<String> lines = r.outLines();
    String last = lines.get(lines.size() - 1);
    assertThat(last).matches("\\s*9\\s+gpu_worker#1\\s+-\\s+12GiB\\s+0B\\s+alloc staged 12GiB");
    assertThat(stepLines(r.out())).hasSize(9);
    // The printed counterexample is a well-formed trace of 9 transitions.
    Trace t = TraceFormat.parse("<out>", printedTrace(r.out()));
    assertThat(t.length()).isEqualTo(9);
    assertThat(t.params().threads()).containsExactly(Map.entry("gpu_worker", 2));
    assertThat(t.outcome()).isInstanceOf(Outcome.Violated.class);
    assertThat(((Outcome.Violated) t.outcome()).violation().message()).isEqualTo(OOM_MESSAGE);
  }

  @Test
  void singleLockIsSafeAlsoWithSixWorkers() {
    Run r = run("check", design("single-lock"));
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out()).contains("verdict   SAFE").contains("no reachable state violates (exhaustive search)")
        .doesNotContain("counterexample").doesNotContain("LIMIT");
    assertThat(stepLines(r.out())).isEmpty();
    assertThat(r.err()).isEmpty();

    Run six = run("check", design("single-lock"), "--threads", "gpu_worker=6");
    assertThat(six.status()).as(six.describe()).isZero();
    assertThat(six.out()).contains("checked   vram 16GiB, gpu_worker x6 jobs 2").contains("verdict   SAFE");
  }

  @Test
  void overlapOfBG2MsmAndNttMsmIsReachableOnlyWhenTheLockIsReleasedEarly() throws Exception {
    Run early = run("check", design("single-lock"), "--overlap", "b_g2_msm", "ntt_msm");
    assertThat(early.status()).as(early.describe()).isZero();
    assertThat(early.out()).contains("verdict   SAFE").contains("overlap   b_g2_msm ntt_msm: REACHABLE").contains("witness (");
    Trace witness = TraceFormat.parse("<out>", printedTrace(early.out()));
    assertThat(witness.outcome()).isEqualTo(new Outcome.Overlapped("b_g2_msm", "ntt_msm"));

    Run late = run("check", design("single-lock-late-release"), "--overlap", "b_g2_msm", "ntt_msm");
    assertThat(late.status()).as(late.describe()).isZero();
    assertThat(late.out()).contains("verdict   SAFE").contains("overlap   b_g2_msm ntt_msm: UNREACHABLE")
        .doesNotContain(": REACHABLE").doesNotContain("witness (");
  }

  @Test
  void reservationIsSafeAndOverlapsStagingOnlyOnABiggerCard() {
    Run plain = run("check", design("reservation"));
    assertThat(plain.status()).as(plain.describe()).isZero();
    assertThat(plain.out()).contains("verdict   SAFE").contains("vram_units 16 permits");

    Run small = run("check", design("reservation"), "--overlap", "h2d", "ntt_msm");
    assertThat(small.status()).as(small.describe()).isZero();
    assertThat(small.out()).contains("verdict   SAFE").contains("overlap   h2d ntt_msm: UNREACHABLE").doesNotContain("witness (");

    Run big = run("check", design("reservation"), "--vram", "32GiB", "--permits", "vram_units=32", "--overlap", "h2d", "ntt_msm");
    assertThat(big.status()).as(big.describe()).isZero();
    assertThat(big.out())
        .contains("checked   vram 32GiB, gpu_worker x3 jobs 2, vram_units 32 permits")
        .contains("verdict   SAFE")
        .contains("overlap   h2d ntt_msm: REACHABLE")
        .contains("witness (");
  }

  // ---- check --json ----

  @Test
  @SuppressWarnings("unchecked")
  void jsonReportOfTwoLockIsOneParsableLine() {
    Run r = run("check", design("two-lock"), "--json");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.err()).isEmpty();
    assertThat(r.outLines()).hasSize(1);
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m.keySet()).containsExactly(
        "design", "verdict", "searched_transitions", "threads", "searched_states", "seconds", "overlap", "message", "length", "trace",
        "others", "others_complete", "partial_order_reduction", "reduced_search", "search_threads", "state_store_peak_bytes", "limit");
    assertThat(m.get("others")).as("OOM is two-lock's only violation kind").isEqualTo(List.of());
    assertThat(m.get("partial_order_reduction")).isEqualTo(true);
    assertThat(m.get("reduced_search")).as("a violation is shown by the plain search's shortest trace").isEqualTo(false);
    assertThat((Long) m.get("state_store_peak_bytes")).isPositive();
    assertThat(m).containsEntry("limit", null);
    assertThat(m.get("seconds")).isInstanceOf(Double.class);
    assertThat(m.get("design")).isEqualTo("two-lock");
    assertThat(m.get("verdict")).isEqualTo("OOM");
    assertThat(m.get("threads")).isEqualTo(Map.of("gpu_worker", 2L));
    assertThat(m).containsEntry("overlap", null);
    assertThat(m.get("message")).isEqualTo(OOM_MESSAGE);
    assertThat(m.get("length")).isEqualTo(9L);
    assertThat((Long) m.get("searched_states")).isPositive();
    assertThat((Long) m.get("searched_transitions")).isPositive();
    List<Object> trace = (List<Object>) m.get("trace");
    assertThat(trace).hasSize(9);
    for (int i = 0; i < trace.size(); i++) {
      Map<String, Object> e = (Map<String, Object>) trace.get(i);
      assertThat(e.keySet()).containsExactly("i", "thread", "step", "phase", "used", "cached");
      assertThat(e.get("i")).isEqualTo((long) i + 1);
    }
    Map<String, Object> first = (Map<String, Object>) trace.get(0);
    assertThat(first.get("phase")).isEqualTo("begin");
    Map<String, Object> ninth = (Map<String, Object>) trace.get(8);
    assertThat(ninth.get("thread")).isEqualTo("gpu_worker#1");
    assertThat(ninth.get("step")).isEqualTo("alloc staged 12GiB");
    assertThat(ninth).containsEntry("phase", null);
    assertThat(ninth.get("used")).isEqualTo(12884901888L);
    assertThat(ninth.get("cached")).isEqualTo(0L);
  }

  // ---- check: which counterexample, when there are several ----

  /** RELEASE_EXCESS with 1 thread in 3 transitions; OOM needs all 3 threads, also in 3 (BFS alone would show it first). */
  private String ruleDesign() throws IOException {
    Path f = tmp.resolve("rule.design");
    Files.writeString(f, "design rule\nvram 10GiB\nsemaphore sem 1\nrole w x3\n  alloc a 4GiB\n  trim\n  release sem 1\n");
    return f.toString();
  }

  @Test
  void thePrimaryCounterexampleHasTheFewestThreadsAndTheOtherKindsAreListed() throws IOException {
    Run r = run("check", ruleDesign());
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out())
        .contains("verdict   RELEASE_EXCESS\n")
        .contains("minimal   w=1 (fewest threads in total, then transitions, of any violation kind; ")
        .contains("other     OOM at w=3, 3 transitions\n")
        .contains("counterexample (3 transitions, w=1):")
        .doesNotContain("other counterexample");
    assertThat(stepLines(r.out())).hasSize(3);
    Run two = run("check", design("two-lock"));
    assertThat(two.out()).contains("others    none found\n").contains("may be incomplete");
    assertThat(run("check", design("two-lock"), "--all-violations").out()).contains("others    none\n").doesNotContain("incomplete");
  }

  @Test
  void allViolationsPrintsEachOtherKindsTraceAfterThePrimary() throws Exception {
    Run r = run("check", ruleDesign(), "--all-violations");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).contains("other     OOM at w=3, 3 transitions\n").doesNotContain("may be incomplete");
    int primary = r.out().indexOf("counterexample (3 transitions, w=1):");
    int other = r.out().indexOf("other counterexample: OOM (3 transitions, w=3):");
    assertThat(primary).isPositive();
    assertThat(other).isGreaterThan(primary);
    Trace t = TraceFormat.parse("<out>", printedTrace(r.out().substring(other)));
    assertThat(t.params().threads()).containsExactly(Map.entry("w", 3));
    assertThat(((Outcome.Violated) t.outcome()).violation().kind().name()).isEqualTo("OOM");
    assertThat(stepLines(r.out())).hasSize(6);
    assertInputError(run("check", ruleDesign(), "--all-violations", "--random", "5"),
        "--all-violations needs the exhaustive search", false);
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonListsTheOtherKindsAndWithAllViolationsTheirTraces() throws IOException {
    Map<String, Object> m = (Map<String, Object>) parseJson(run("check", ruleDesign(), "--json").out());
    assertThat(m.get("verdict")).isEqualTo("RELEASE_EXCESS");
    assertThat(m.get("threads")).isEqualTo(Map.of("w", 1L));
    assertThat(m.get("others")).isEqualTo(List.of(Map.of("verdict", "OOM", "threads", Map.of("w", 3L), "length", 3L)));
    assertThat(m.get("others_complete")).as("the checked counts were not searched exhaustively").isEqualTo(false);

    Map<String, Object> all = (Map<String, Object>) parseJson(run("check", ruleDesign(), "--json", "--all-violations").out());
    assertThat(all.get("others_complete")).isEqualTo(true);
    List<Object> others = (List<Object>) all.get("others");
    assertThat(others).hasSize(1);
    Map<String, Object> oom = (Map<String, Object>) others.get(0);
    assertThat(oom.keySet()).containsExactly("verdict", "threads", "length", "trace");
    List<Object> trace = (List<Object>) oom.get("trace");
    assertThat(trace).hasSize(3);
    assertThat(((Map<String, Object>) trace.get(0)).keySet())
        .isEqualTo(((Map<String, Object>) ((List<Object>) all.get("trace")).get(0)).keySet());
    assertThat(((Map<String, Object>) trace.get(2)).get("step")).isEqualTo("alloc a 4GiB");
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonReportsOverlapAnswerAndLimit() {
    Run r = run("check", design("single-lock"), "--overlap", "b_g2_msm", "ntt_msm", "--json");
    assertThat(r.status()).as(r.describe()).isZero();
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m.get("verdict")).isEqualTo("SAFE");
    assertThat(m.get("overlap")).isEqualTo("REACHABLE");
    assertThat((List<Object>) m.get("trace")).hasSize(((Long) m.get("length")).intValue()).isNotEmpty();

    Run limit = run("check", design("single-lock"), "--max-states", "10", "--json");
    assertThat(limit.status()).as(limit.describe()).isEqualTo(2);
    Map<String, Object> l = (Map<String, Object>) parseJson(limit.out());
    assertThat(l.get("verdict")).isEqualTo("LIMIT");
    assertThat(l.get("searched_states")).isEqualTo(10L);
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonOfRandomSchedulesAddsSeedAndSchedulesAndHasNoStateCount() {
    Run r = run("check", design("two-lock"), "--random", "20", "--seed", "7", "--json");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.outLines()).hasSize(1);
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m.keySet()).containsExactly("design", "verdict", "searched_transitions", "threads", "searched_states", "seconds", "overlap",
        "seed", "schedules", "schedules_run", "schedules_per_second", "random_threads", "message", "length", "original_length",
        "original_threads", "shrink_attempts", "shrink_seconds", "trace");
    assertThat(m).containsEntry("searched_states", null).containsEntry("overlap", null);
    assertThat(m.get("seed")).isEqualTo(7L);
    assertThat(m.get("verdict")).isEqualTo("OOM");
    assertThat(m.get("threads")).isEqualTo(Map.of("gpu_worker", 2L)); // shrunk
    assertThat(m.get("original_threads")).isEqualTo(Map.of("gpu_worker", 3L));
    assertThat((List<Object>) m.get("trace")).hasSize(((Long) m.get("length")).intValue()).isNotEmpty();
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonErrorKeepsQuotesBackslashesAndTabsOfTheMessage() {
    String odd = tmp.resolve("q\"uo\\te\ttab.design").toString();
    Run r = run("check", odd, "--json");
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.outLines()).hasSize(1);
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat((String) m.get("error")).startsWith(odd + ":");
  }

  @Test
  @SuppressWarnings("unchecked")
  void jsonInputErrorIsAnErrorObjectWithThePosition() throws IOException {
    Path bad = writeBadDesign();
    Run r = run("check", bad.toString(), "--json");
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.err()).isEmpty();
    assertThat(r.outLines()).hasSize(1);
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m.keySet()).containsExactly("error");
    assertThat((String) m.get("error")).startsWith(bad + ":4:3: ").contains("unknown keyword 'bogus'");

    Run option = run("check", design("two-lock"), "--json", "--bogus");
    assertThat(option.status()).as(option.describe()).isEqualTo(2);
    Map<String, Object> o = (Map<String, Object>) parseJson(option.out());
    assertThat((String) o.get("error")).contains("--bogus");
  }

  private Path writeBadDesign() throws IOException {
    Path bad = tmp.resolve("bad.design");
    Files.writeString(bad, "design bad\nvram 16GiB\nrole w x1 jobs 1\n  bogus thing\n");
    return bad;
  }

  // ---- input errors ----

  /** Exit 2, nothing on out, one line on err starting "interlock: " + prefix (a parameter error may add a --help hint). */
  private static void assertInputError(Run r, String prefix, boolean hint) {
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.out()).as(r.describe()).isEmpty();
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    List<String> lines = r.errLines();
    assertThat(lines).as(r.describe()).hasSize(hint ? 2 : 1);
    assertThat(lines.get(0)).startsWith("interlock: " + prefix);
    if (hint) {
      assertThat(lines.get(1)).isEqualTo("Try 'interlock check --help'.");
    }
  }

  @Test
  void badDesignFileIsReportedWithItsPosition() throws IOException {
    Path bad = writeBadDesign();
    Run r = run("check", bad.toString());
    assertInputError(r, bad + ":4:3: unknown keyword 'bogus'", false);
  }

  @Test
  void missingDesignFile() {
    Path missing = tmp.resolve("nosuch.design");
    assertInputError(run("check", missing.toString()), missing + ":1:1: cannot read file: no such file", false);
  }

  @Test
  void badOverrides() {
    String d = design("two-lock");
    assertInputError(run("check", d, "--threads", "nosuchrole=2"), "--threads: no role 'nosuchrole' in design two-lock", false);
    assertInputError(run("check", d, "--threads", "gpu_worker=0"), "--threads gpu_worker: needs at least 1, got 0", false);
    assertInputError(run("check", d, "--vram", "12XB"), "--vram: bad size unit 'XB' in '12XB'", false);
    assertInputError(run("check", d, "--permits", "nosuch=2"), "--permits: no semaphore 'nosuch'", false);
    assertInputError(run("check", design("single-lock"), "--overlap", "nosuch", "ntt_msm"),
        design("single-lock") + ": --overlap: no interval 'nosuch' in design single-lock", false);
    assertInputError(run("check", d, "--max-states", "0"), "--max-states must be positive", false);
    assertInputError(run("check", d, "--random", "0"), "--random needs at least 1 schedule", false);
  }

  @Test
  void unknownOptionAndBadOptionValue() {
    String d = design("two-lock");
    assertInputError(run("check", d, "--bogus"), "Unknown option: '--bogus'", true);
    assertInputError(run("check", d, "--threads", "gpu_worker=abc"), "--threads gpu_worker: needs a number or any, got 'abc'", false);
  }

  // ---- limits and random schedules ----

  @Test
  void stateLimitIsNeverReportedSafe() {
    Run r = run("check", design("single-lock"), "--max-states", "10");
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.out()).contains("verdict   LIMIT").contains("NOT a proof").contains("search    10 states").doesNotContain("SAFE");
  }

  @Test
  @SuppressWarnings("unchecked")
  void memoryLimitIsNeverReportedSafeAndSaysWhichLimit() {
    Run r = run("check", design("single-lock"), "--threads", "gpu_worker=5", "--no-por", "--max-memory", "300KiB", "--json");
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m.get("verdict")).isEqualTo("LIMIT");
    assertThat(m.get("limit")).isEqualTo("max_memory");
    assertThat(m.get("partial_order_reduction")).isEqualTo(false);
    Run text = run("check", design("single-lock"), "--threads", "gpu_worker=5", "--no-por", "--max-memory", "300KiB");
    assertThat(text.out()).contains("stopped at --max-memory 300KiB").doesNotContain("SAFE");
    Run safe = run("check", design("single-lock"), "--threads", "gpu_worker=5", "--search-threads", "2", "--json");
    assertThat(((Map<String, Object>) parseJson(safe.out())).get("reduced_search")).isEqualTo(true);
    assertInputError(run("check", design("single-lock"), "--max-memory", "lots"), "--max-memory:", false);
    assertInputError(run("check", design("single-lock"), "--search-threads", "0"), "--search-threads must be in 1..1024", false);
  }

  /** The output without lines that carry timings. */
  private static String withoutTimings(String out) {
    return out.lines().filter(l -> !l.startsWith("search") && !l.matches(".*[0-9]\\.[0-9]+ s\\b.*"))
        .collect(Collectors.joining("\n"));
  }

  @Test
  void randomSchedulesAreReproducibleFromTheSeed() throws Exception {
    String[] a = args("check", design("two-lock"), "--random", "50", "--seed", "7", "--no-shrink");
    Run first = run(a);
    assertThat(first.status()).as(first.describe()).isEqualTo(1);
    assertThat(first.out()).contains("from seed 7").contains("--random 50 --seed 7").contains("verdict   OOM")
        .containsPattern("violating schedule \\([0-9]+ transitions, seed [0-9]+\\)");
    Trace t = TraceFormat.parse("<out>", printedTrace(first.out()));
    assertThat(t.seed()).isPresent();
    assertThat(t.seed().get()).isBetween(7L, 56L);
    assertThat(t.params().threads()).containsExactly(Map.entry("gpu_worker", 3));
    assertThat(((Outcome.Violated) t.outcome()).violation().kind()).isEqualTo(ViolationKind.OOM);

    Run second = run(a);
    assertThat(second.status()).isEqualTo(1);
    assertThat(withoutTimings(second.out())).isEqualTo(withoutTimings(first.out()));
    assertThat(withoutTimings(first.out())).contains("verdict   OOM");

    Run safe = run("check", design("single-lock"), "--random", "50", "--seed", "7");
    assertThat(safe.status()).as(safe.describe()).isZero();
    assertThat(safe.out()).contains("verdict   NONE_FOUND").contains("50 schedules from seed 7").contains("not a proof")
        .doesNotContain("SAFE");
    assertThat(stepLines(safe.out())).isEmpty();
  }

  @Test
  void randomCannotAnswerOverlapQueries() {
    assertInputError(run("check", design("single-lock"), "--random", "5", "--overlap", "b_g2_msm", "ntt_msm"),
        "--overlap needs the exhaustive search", false);
  }

  // ---- --trace-out ----

  @Test
  void traceOutWritesTheCounterexampleAndNeverClobbersWithoutForce() throws Exception {
    Path file = tmp.resolve("sub/two-lock.trace");
    Run r = run("check", design("two-lock"), "--trace-out", file.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).contains("trace written to " + file);
    Trace written = TraceFormat.read(file);
    assertThat(written.length()).isEqualTo(9);
    assertThat(written.seed()).isEmpty();
    assertThat(written.source()).isEqualTo(design("two-lock"));
    assertThat(Files.readString(file)).startsWith(TraceFormat.MAGIC + "\n");
    byte[] before = Files.readAllBytes(file);

    // A different trace (random schedule) to the same path: refused, the file is as it was.
    Run again = run("check", design("two-lock"), "--random", "50", "--seed", "7", "--trace-out", file.toString());
    assertInputError(again, file + ": exists; not overwritten (pass --force to replace it)", false);
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    Run same = run("check", design("two-lock"), "--trace-out", file.toString());
    assertThat(same.status()).isEqualTo(2);
    assertThat(Files.readAllBytes(file)).isEqualTo(before);

    Run forced = run("check", design("two-lock"), "--random", "50", "--seed", "7", "--trace-out", file.toString(), "--force");
    assertThat(forced.status()).as(forced.describe()).isEqualTo(1);
    Trace replaced = TraceFormat.read(file);
    assertThat(replaced.seed()).isPresent();
    assertThat(replaced).isEqualTo(TraceFormat.parse("<out>", printedTrace(forced.out())));
    try (var files = Files.list(file.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("two-lock.trace");
    }
  }

  @Test
  void traceOutWithoutAViolationWritesNothing() {
    Path file = tmp.resolve("safe.trace");
    Run r = run("check", design("single-lock"), "--trace-out", file.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out()).contains("no trace to write to " + file);
    assertThat(file).doesNotExist();
  }

  // ---- replay ----

  private Path writeTwoLockTrace(String name) {
    Path file = tmp.resolve(name);
    Run r = run("check", design("two-lock"), "--trace-out", file.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    return file;
  }

  /** The trace text with step line {@code index} passed through {@code edit}. */
  private static String editStep(String text, int index, java.util.function.UnaryOperator<String> edit) {
    String[] lines = text.split("\n", -1);
    int hits = 0;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].strip().startsWith(index + " ")) {
        String changed = edit.apply(lines[i]);
        assertThat(changed).as("edit of %s", lines[i]).isNotEqualTo(lines[i]);
        lines[i] = changed;
        hits++;
      }
    }
    assertThat(hits).isEqualTo(1);
    return String.join("\n", lines);
  }

  /** A step line with its thread swapped between gpu_worker#0 and gpu_worker#1. */
  private static String otherWorker(String line) {
    return line.contains("gpu_worker#0") ? line.replace("gpu_worker#0", "gpu_worker#1") : line.replace("gpu_worker#1", "gpu_worker#0");
  }

  @Test
  void replayConfirmsAWrittenTrace() {
    Path file = writeTwoLockTrace("t.trace");
    Run r = run("replay", file.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).startsWith("confirmed: " + file).contains("9 transitions end in OOM as recorded");
  }

  @Test
  void replayConfirmsAnOverlapWitnessWithOverriddenParameters() {
    Path file = tmp.resolve("w.trace");
    Run c = run("check", design("reservation"), "--vram", "32GiB", "--permits", "vram_units=32", "--overlap", "h2d", "ntt_msm",
        "--trace-out", file.toString());
    assertThat(c.status()).as(c.describe()).isZero();
    Run r = run("replay", file.toString());
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out()).contains("end in OVERLAP h2d ntt_msm as recorded");
  }

  @Test
  void replayOfAnEditedThreadDivergesAtThatTransition() throws IOException {
    Path file = writeTwoLockTrace("t.trace");
    Path edited = tmp.resolve("thread.trace");
    Files.writeString(edited, editStep(Files.readString(file), 8, CliTest::otherWorker));
    Run r = run("replay", edited.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    // Step 8 is the second worker's "lock mem_mtx"; the first worker is elsewhere by then.
    assertThat(r.out()).startsWith("diverged: " + edited + " at transition 8 on the model: ").contains(" is at '").contains("the trace has 'lock mem_mtx'");
  }

  @Test
  void replayOfEditedUsedBytesDivergesAtThatTransition() throws IOException {
    Path file = writeTwoLockTrace("t.trace");
    Path edited = tmp.resolve("used.trace");
    // Fields: index thread phase used cached step; set step 6's used bytes to a value the model never has.
    Files.writeString(edited, editStep(Files.readString(file), 6, l -> l.replaceFirst("^(\\s*6\\s+\\S+\\s+\\S+\\s+)\\S+", "$11023B")));
    Run r = run("replay", edited.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).startsWith("diverged: " + edited + " at transition 6 on the model: ").contains("the trace has used 1023B");
  }

  @Test
  @SuppressWarnings("unchecked")
  void replayJsonReportsWhereItDiverges() throws IOException {
    Path file = writeTwoLockTrace("t.trace");
    Path edited = tmp.resolve("thread.trace");
    Files.writeString(edited, editStep(Files.readString(file), 8, CliTest::otherWorker));
    Run r = run("replay", edited.toString(), "--json");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m.keySet()).containsExactly("trace", "design", "on", "confirmed", "length", "outcome", "diverges_at", "reason");
    assertThat(m.get("confirmed")).isEqualTo(false);
    assertThat(m.get("diverges_at")).isEqualTo(8L);
    assertThat(m.get("outcome")).isEqualTo("OOM");

    Map<String, Object> ok = (Map<String, Object>) parseJson(run("replay", file.toString(), "--json").out());
    assertThat(ok.get("confirmed")).isEqualTo(true);
    assertThat(ok).doesNotContainKey("diverges_at");
    assertThat(ok.keySet()).containsExactly("trace", "design", "on", "confirmed", "length", "outcome");
  }

  @Test
  void replayOfGarbageIsAnInputErrorWithPosition() throws IOException {
    Path garbage = tmp.resolve("garbage.trace");
    Files.write(garbage, "hello\nworld\n".getBytes(StandardCharsets.UTF_8));
    Run r = run("replay", garbage.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.errLines().get(0)).startsWith("interlock: " + garbage + ":1:1: not an interlock trace");
    assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");

    Path badStep = tmp.resolve("badstep.trace");
    Path good = writeTwoLockTrace("t.trace");
    Files.writeString(badStep, editStep(Files.readString(good), 3, l -> l.replaceFirst("^(\\s*3\\s+\\S+\\s+)\\S+", "$1middle")));
    Run s = run("replay", badStep.toString());
    assertThat(s.status()).as(s.describe()).isEqualTo(2);
    assertThat(s.errLines()).hasSize(1);
    assertThat(s.errLines().get(0)).startsWith("interlock: " + badStep + ":13:").contains("phase must be begin, end, then, else, oom or -, got 'middle'");

    Path missing = tmp.resolve("missing.trace");
    Run m = run("replay", missing.toString());
    assertThat(m.status()).isEqualTo(2);
    assertThat(m.err()).startsWith("interlock: " + missing + ":1:1: cannot read file");
  }

  @Test
  void replayOfAStepTextTheDesignLanguageCannotReadIsAnInputErrorAtItsColumn() throws IOException {
    Path bad = tmp.resolve("badtext.trace");
    String text = editStep(Files.readString(writeTwoLockTrace("t.trace")), 3, l -> l.replace("lock mem_mtx", "lokc mem_mtx"));
    Files.writeString(bad, text);
    String line = text.split("\n")[12];
    assertThat(line).endsWith("lokc mem_mtx");
    Run r = run("replay", bad.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.errLines()).containsExactly("interlock: " + bad + ":13:" + (line.indexOf("lokc") + 1)
        + ": unknown keyword 'lokc' (expected one of: lock, unlock, acquire, release, alloc, free, trim, sync, kernel, cpu,"
        + " spawn, join, signal, wait, if, else, end, on, choose, or);"
        + " did you mean 'lock'?");
  }

  @Test
  void replayWithoutItsDesignFileSaysSo() throws IOException {
    Path file = writeTwoLockTrace("t.trace");
    Path moved = tmp.resolve("moved.trace");
    Files.writeString(moved, Files.readString(file).replace("source   " + design("two-lock"), "source   nowhere/x.design"));
    Run r = run("replay", moved.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.err()).startsWith("interlock: " + moved + ": design file 'nowhere/x.design' not found").contains("--design");
    Run given = run("replay", moved.toString(), "--design", design("two-lock"));
    assertThat(given.status()).as(given.describe()).isZero();
    assertThat(given.out()).startsWith("confirmed: ");
  }

  // ---- bench ----

  @Test
  void benchPrintsOneRowPerThreadCount() {
    Run r = run("bench", design("single-lock"), "--from", "2", "--to", "3");
    assertThat(r.status()).as(r.describe()).isZero();
    List<String> rows = r.outLines().stream().filter(l -> l.matches("[0-9]+\\s.*")).collect(Collectors.toList());
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0)).matches("2\\s+2\\s+[0-9]+\\s+[0-9]+\\s+[0-9.]+\\s+[0-9]+\\s+[0-9.]+\\s+SAFE");
    assertThat(rows.get(1)).matches("3\\s+2\\s+[0-9]+\\s+[0-9]+\\s+[0-9.]+\\s+[0-9]+\\s+[0-9.]+\\s+SAFE");
    // More threads, more states.
    long states2 = Long.parseLong(rows.get(0).split("\\s+")[2]);
    long states3 = Long.parseLong(rows.get(1).split("\\s+")[2]);
    assertThat(states3).isGreaterThan(states2);
  }

  @Test
  void benchRejectsABadRange() {
    Run r = run("bench", design("single-lock"), "--from", "3", "--to", "2");
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.err()).startsWith("interlock: need 1 <= --from <= --to and --step >= 1, got 3..2");
    assertThat(r.out()).doesNotContain("SAFE");
  }
}
