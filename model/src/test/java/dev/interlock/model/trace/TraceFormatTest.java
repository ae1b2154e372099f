package dev.interlock.model.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.OverlapAnswer;
import dev.interlock.model.check.OverlapQuery;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFormatTest {
  private static final long GIB = Sizes.GIB;

  static Map<String, Integer> map(Object... kv) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], (Integer) kv[i + 1]);
    }
    return m;
  }

  static TraceStep step(int i, String thread, String text, Phase phase, long used, long cached) {
    return new TraceStep(i, thread, TestDesigns.step(text), Optional.ofNullable(phase), used, cached);
  }

  static Parameters twoWorkers() {
    return new Parameters(16 * GIB, map("gpu_worker", 2), map("gpu_worker", 2), map());
  }

  static List<TraceStep> oomSteps() {
    return List.of(
        step(1, "gpu_worker#0", "cpu synthesize", Phase.BEGIN, 0, 0),
        step(2, "gpu_worker#0", "cpu synthesize", Phase.END, 0, 0),
        step(3, "gpu_worker#0", "alloc staged 12GiB", null, 12 * GIB, 0),
        step(4, "gpu_worker#1", "alloc staged 12GiB", null, 12 * GIB, 0));
  }

  static Trace violated() {
    return new Trace("two-lock", "designs/two-lock.design", twoWorkers(), Optional.empty(),
        new Outcome.Violated(new Violation(ViolationKind.OOM,
            "gpu_worker#1 alloc staged 12GiB: 12GiB live + 12GiB requested > 16GiB vram (live: gpu_worker#0.staged=12GiB)")),
        oomSteps());
  }

  /** The printed text of {@link #violated()}, line by line (1-based: element 0 is line 1). */
  static List<String> violatedLines() {
    return new ArrayList<>(TraceFormat.print(violated()).lines().toList());
  }

  static Trace roundTrip(Trace t) throws TraceFormatException {
    String text = TraceFormat.print(t);
    Trace back = TraceFormat.parse("t.trace", text);
    assertThat(back).isEqualTo(t);
    assertThat(TraceFormat.print(back)).isEqualTo(text);
    return back;
  }

  // ---- round trips ----

  @Test
  void printedTraceStartsWithTheMagicLineAndEndsWithANewline() {
    String text = TraceFormat.print(violated());
    assertThat(TraceFormat.MAGIC).isEqualTo("# interlock trace v2");
    assertThat(text).startsWith(TraceFormat.MAGIC + "\n").endsWith("\n").doesNotContain("\r");
    assertThat(text.lines().toList()).contains(
        "design   two-lock",
        "source   designs/two-lock.design",
        "vram     16GiB",
        "threads  gpu_worker=2",
        "jobs     gpu_worker=2",
        "permits  -",
        "seed     -");
    assertThat(text.lines().filter(l -> l.strip().matches("[0-9]+\\s.*"))).hasSize(4);
    assertThat(text).contains("begin").contains("end");
  }

  @Test
  void violationRoundTrips() throws TraceFormatException {
    Trace back = roundTrip(violated());
    assertThat(back.steps().get(3).used()).isEqualTo(12 * GIB);
    assertThat(back.steps().get(0).phase()).contains(Phase.BEGIN);
    assertThat(back.steps().get(2).phase()).isEmpty();
  }

  @Test
  void everyViolationKindRoundTrips() throws TraceFormatException {
    for (ViolationKind k : ViolationKind.values()) {
      Trace t = new Trace("d", "d.design", twoWorkers(), Optional.empty(),
          new Outcome.Violated(new Violation(k, k + " happened:  two spaces, (parens) and = signs")), oomSteps());
      assertThat(roundTrip(t).outcome()).isEqualTo(t.outcome());
    }
  }

  @Test
  void overlapRoundTrips() throws TraceFormatException {
    Trace t = new Trace("single-lock", "designs/single-lock.design", twoWorkers(), Optional.empty(),
        new Outcome.Overlapped("b_g2_msm", "ntt_msm"), oomSteps().subList(0, 3));
    assertThat(roundTrip(t).outcome()).isEqualTo(new Outcome.Overlapped("b_g2_msm", "ntt_msm"));
    assertThat(TraceFormat.print(t)).contains("\noutcome  OVERLAP b_g2_msm ntt_msm\n");
  }

  @Test
  void stoppedRoundTripsWithItsReasonAndIsNotReadAsAViolation() throws TraceFormatException {
    Outcome.Stopped stop = new Outcome.Stopped("DIVERGES: thread 7 (gpu_worker#1): cuMemAlloc_v2(12GiB) at run.capture:12;  two spaces = kept");
    Trace t = new Trace("d", "d.design", twoWorkers(), Optional.empty(), stop, oomSteps().subList(0, 3));
    assertThat(TraceFormat.print(t)).contains("\noutcome  STOPPED DIVERGES: thread 7 ");
    assertThat(roundTrip(t).outcome()).isEqualTo(stop);
    List<String> lines = violatedLines();
    int o = lineOf(lines, "outcome");
    lines.set(o, "outcome  STOPPED");
    assertAt(error(lines), o + 1, 10, "'STOPPED reason'");
  }

  @Test
  void aStoppedReasonIsOneLine() {
    for (String bad : new String[] {"", " ", "two\nlines", " padded", "cr\rhere"}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Outcome.Stopped(bad)).as("'%s'", bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void completedWithSeedsRoundTrips() throws TraceFormatException {
    for (long seed : new long[] {0, 7, -3, Long.MAX_VALUE, Long.MIN_VALUE}) {
      Trace t = new Trace("d", "d.design", twoWorkers(), Optional.of(seed), new Outcome.Completed(), oomSteps());
      Trace back = roundTrip(t);
      assertThat(back.seed()).contains(seed);
      assertThat(back.outcome()).isInstanceOf(Outcome.Completed.class);
    }
  }

  @Test
  void semaphoresRolesAndOddSizesRoundTrip() throws TraceFormatException {
    Parameters p = new Parameters(24 * GIB + 512 * Sizes.MIB, map("loader", 1, "gpu_worker", 3), map("loader", 4, "gpu_worker", 1),
        map("vram_units", 14, "slots", 0));
    List<TraceStep> steps = new ArrayList<>();
    long[] sizes = {1, 1023, Sizes.KIB, 1536 * Sizes.MIB, 12 * GIB + 1, 3 * GIB + 4 * Sizes.KIB};
    for (int i = 0; i < 12; i++) {
      long used = sizes[i % sizes.length];
      steps.add(step(i + 1, i % 2 == 0 ? "loader#0" : "gpu_worker#2", i % 3 == 0 ? "acquire vram_units 14" : "kernel ntt_msm",
          i % 3 == 0 ? null : i % 3 == 1 ? Phase.BEGIN : Phase.END, used, used / 2 / 1024 * 1024));
    }
    // Index 10 onwards is two digits wide: alignment must not break parsing.
    Trace t = new Trace("reservation", "my designs/reservation v2.design", p, Optional.of(42L),
        new Outcome.Violated(new Violation(ViolationKind.RELEASE_EXCESS, "loader#0 release vram_units 14: holds 0")), steps);
    Trace back = roundTrip(t);
    assertThat(back.params().permits()).containsExactly(Map.entry("vram_units", 14), Map.entry("slots", 0));
    assertThat(back.params().threads()).containsExactly(Map.entry("loader", 1), Map.entry("gpu_worker", 3));
    assertThat(back.source()).isEqualTo("my designs/reservation v2.design");
    assertThat(back.steps().get(4).used()).isEqualTo(12 * GIB + 1);
    assertThat(TraceFormat.print(t)).contains("permits  vram_units=14 slots=0\n");
  }

  @Test
  void emptyStepListRoundTrips() throws TraceFormatException {
    Trace t = new Trace("d", "d.design", twoWorkers(), Optional.empty(),
        new Outcome.Violated(new Violation(ViolationKind.DEADLOCK, "nobody can move")), List.of());
    Trace back = roundTrip(t);
    assertThat(back.length()).isZero();
    Trace completed = new Trace("d", "d.design", twoWorkers(), Optional.empty(), new Outcome.Completed(), List.of());
    assertThat(roundTrip(completed).steps()).isEmpty();
  }

  @Test
  void checkerTracesRoundTrip() throws TraceFormatException {
    CheckReport oom = Checker.check(TestDesigns.shipped("two-lock"), "designs/two-lock.design", Checker.Options.defaults(1_000_000));
    assertThat(roundTrip(oom.counterexample().orElseThrow()).length()).isEqualTo(9);
    CheckReport overlap = Checker.check(TestDesigns.shipped("reservation").withVram(32 * GIB).withPermits("vram_units", 32),
        "designs/reservation.design", Checker.Options.defaults(1_000_000).withOverlap(new OverlapQuery("h2d", "ntt_msm")));
    Trace witness = overlap.overlap().flatMap(OverlapAnswer::witness).orElseThrow();
    assertThat(roundTrip(witness).params().permits()).containsExactly(Map.entry("vram_units", 32));
  }

  @Test
  void toleratesCrlfCommentsAndBlankLines() throws TraceFormatException {
    List<String> lines = violatedLines();
    lines.add(3, "");
    lines.add(5, "   # a comment between header lines");
    lines.add("");
    String crlf = String.join("\r\n", lines) + "\r\n";
    assertThat(TraceFormat.parse("t.trace", crlf)).isEqualTo(violated());
  }

  @Test
  void readsAFile(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("x.trace");
    Files.writeString(f, TraceFormat.print(violated()));
    assertThat(TraceFormat.read(f)).isEqualTo(violated());
    Path bad = dir.resolve("bad.trace");
    Files.write(bad, new byte[] {(byte) 0xff, (byte) 0xfe, 'x'});
    TraceFormatException e = catchThrowableOfType(() -> TraceFormat.read(bad), TraceFormatException.class);
    assertThat(e.getMessage()).isEqualTo(bad + ":1:1: not UTF-8 text");
    TraceFormatException missing = catchThrowableOfType(() -> TraceFormat.read(dir.resolve("nope.trace")), TraceFormatException.class);
    assertThat(missing.getMessage()).startsWith(dir.resolve("nope.trace") + ":1:1: cannot read file");
  }

  // ---- errors ----

  static TraceFormatException error(List<String> lines) {
    String text = String.join("\n", lines) + "\n";
    TraceFormatException e = catchThrowableOfType(() -> TraceFormat.parse("t.trace", text), TraceFormatException.class);
    assertThat(e).as("parse error expected for:\n%s", text).isNotNull();
    assertThat(e.getMessage()).isEqualTo("t.trace:" + e.line() + ":" + e.column() + ": " + e.reason());
    return e;
  }

  static void assertAt(TraceFormatException e, int line, int column, String reasonPart) {
    assertThat(e.file()).isEqualTo("t.trace");
    assertThat(e.reason()).contains(reasonPart);
    assertThat(e.line()).as(e.getMessage()).isEqualTo(line);
    assertThat(e.column()).as(e.getMessage()).isEqualTo(column);
  }

  /** Index in {@link #violatedLines()} (0-based) of the line starting with {@code prefix}. */
  static int lineOf(List<String> lines, String prefix) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).strip().startsWith(prefix)) {
        return i;
      }
    }
    throw new AssertionError("no line " + prefix);
  }

  @Test
  void missingMagicLine() {
    List<String> lines = violatedLines();
    lines.remove(0);
    assertAt(error(lines), 1, 1, "not an interlock trace: the first line must be '# interlock trace v2'");
    TraceFormatException empty = catchThrowableOfType(() -> TraceFormat.parse("t.trace", ""), TraceFormatException.class);
    assertAt(empty, 1, 1, "not an interlock trace");
    List<String> v3 = violatedLines();
    v3.set(0, "# interlock trace v3");
    assertAt(error(v3), 1, 1, "not an interlock trace");
  }

  @Test
  void version1TracesStillRead() throws Exception {
    List<String> v1 = violatedLines();
    v1.set(0, "# interlock trace v1");
    Trace t = TraceFormat.parse("t.trace", String.join("\n", v1) + "\n");
    assertThat(t).isEqualTo(violated());
  }

  @Test
  void unknownKey() {
    List<String> lines = violatedLines();
    lines.add(3, "  colour   red");
    assertAt(error(lines), 4, 3, "unknown header key 'colour'");
  }

  @Test
  void duplicateKey() {
    List<String> lines = violatedLines();
    int vram = lineOf(lines, "vram");
    lines.add(vram + 1, "vram     8GiB");
    assertAt(error(lines), vram + 2, 1, "duplicate header key 'vram'");
  }

  @Test
  void keyWithoutValue() {
    List<String> lines = violatedLines();
    int seed = lineOf(lines, "seed");
    lines.set(seed, "seed");
    assertAt(error(lines), seed + 1, 5, "seed needs a value");
  }

  @Test
  void missingKey() {
    for (String key : List.of("design", "source", "vram", "threads", "jobs", "permits", "seed", "outcome")) {
      List<String> lines = violatedLines();
      lines.remove(lineOf(lines, key + " "));
      TraceFormatException e = error(lines);
      assertThat(e.reason()).isEqualTo("missing header key '" + key + "'");
      // Reported at the end of the file: its last line.
      assertThat(e.line()).as(e.getMessage()).isEqualTo(lines.size());
    }
  }

  @Test
  void headerAfterSteps() {
    List<String> lines = violatedLines();
    lines.add("seed 3");
    assertAt(error(lines), lines.size(), 1, "header line after the steps");
  }

  @Test
  void badPhase() {
    List<String> lines = violatedLines();
    int s2 = lineOf(lines, "2 ");
    lines.set(s2, lines.get(s2).replace(" end ", " middle "));
    assertAt(error(lines), s2 + 1, 3, "phase must be begin, end, then, else, oom or -, got 'middle'");
  }

  @Test
  void nonConsecutiveIndex() {
    List<String> lines = violatedLines();
    int s3 = lineOf(lines, "3 ");
    lines.remove(s3);
    // Step 4 now follows step 2.
    assertAt(error(lines), s3 + 1, 3, "expected step 3, got 4");
    List<String> zero = violatedLines();
    int s1 = lineOf(zero, "1 ");
    zero.set(s1, zero.get(s1).replaceFirst("1", "0"));
    assertAt(error(zero), s1 + 1, 3, "expected step 1, got 0");
  }

  @Test
  void badStepIndex() {
    List<String> lines = violatedLines();
    int s1 = lineOf(lines, "1 ");
    lines.set(s1, lines.get(s1).replaceFirst("1", "1x"));
    assertAt(error(lines), s1 + 1, 3, "step index must be an integer, got '1x'");
  }

  @Test
  void badSizeInAStep() {
    List<String> lines = violatedLines();
    int s3 = lineOf(lines, "3 ");
    lines.set(s3, lines.get(s3).replaceFirst("12GiB", "12XB"));
    assertAt(error(lines), s3 + 1, 3, "bad size unit 'XB' in '12XB'");
    List<String> noUnit = violatedLines();
    noUnit.set(s3, noUnit.get(s3).replaceFirst("12GiB", "12"));
    assertAt(error(noUnit), s3 + 1, 3, "size '12' needs a unit");
  }

  @Test
  void cachedAboveUsedInAStep() {
    List<String> lines = violatedLines();
    int s3 = lineOf(lines, "3 ");
    lines.set(s3, lines.get(s3).replaceFirst("0B", "13GiB"));
    assertAt(error(lines), s3 + 1, 3, "need 0 <= cached <= used");
  }

  @Test
  void badThreadAndShortStepLine() {
    List<String> lines = violatedLines();
    int s1 = lineOf(lines, "1 ");
    lines.set(s1, lines.get(s1).replace("gpu_worker#0", "gpu_worker"));
    assertAt(error(lines), s1 + 1, 3, "thread must be role#i or role#i/TASK@J, got 'gpu_worker'");
    List<String> shortLine = violatedLines();
    shortLine.set(s1, "  1  gpu_worker#0  begin  0B");
    assertAt(error(shortLine), s1 + 1, 3, "a step line needs: index thread phase used cached step");
  }

  @Test
  void badSizeInTheHeaderPointsAtTheValue() {
    List<String> lines = violatedLines();
    int vram = lineOf(lines, "vram");
    lines.set(vram, "vram     16QB");
    assertAt(error(lines), vram + 1, 10, "bad size unit 'QB' in '16QB'");
    // Hand-written with a single space: the column still points at the value.
    lines.set(vram, "vram 16QB");
    assertAt(error(lines), vram + 1, 6, "bad size unit 'QB'");
  }

  @Test
  void badHeaderValues() {
    List<String> seed = violatedLines();
    int s = lineOf(seed, "seed");
    seed.set(s, "seed     soon");
    assertAt(error(seed), s + 1, 10, "seed must be an integer or '-'");

    List<String> threads = violatedLines();
    int t = lineOf(threads, "threads");
    threads.set(t, "threads  gpu_worker:2");
    assertAt(error(threads), t + 1, 10, "expected NAME=COUNT pairs, got 'gpu_worker:2'");

    List<String> outcome = violatedLines();
    int o = lineOf(outcome, "outcome");
    outcome.set(o, "outcome  MAYBE something");
    assertAt(error(outcome), o + 1, 10, "outcome must be 'COMPLETED', 'OVERLAP A B', 'OVERLAP A B same-worker', 'STOPPED reason' or a violation kind and message, got 'MAYBE something'");
    outcome.set(o, "outcome  OVERLAP only_one");
    assertAt(error(outcome), o + 1, 10, "outcome must be");
    outcome.set(o, "outcome  OOM");
    assertAt(error(outcome), o + 1, 10, "outcome must be");
  }

  @Test
  void mismatchedRolesAreReportedAtTheThreadsLine() {
    List<String> lines = violatedLines();
    int j = lineOf(lines, "jobs");
    lines.set(j, "jobs     loader=2");
    TraceFormatException e = error(lines);
    assertThat(e.reason()).contains("threads and jobs must name the same roles");
    assertThat(e.line()).isEqualTo(lineOf(lines, "threads") + 1);
  }

  @Test
  void nonAsciiTextRoundTrips() throws TraceFormatException {
    Trace t = new Trace("d", "d\u00e9signs/d.design", twoWorkers(), Optional.empty(),
        new Outcome.Violated(new Violation(ViolationKind.LEAK, "synth\u00e8se \uD834\uDD1E leaked")),
        List.of(step(1, "gpu_worker#0", "cpu synthesize", Phase.BEGIN, 0, 0)));
    Trace back = roundTrip(t);
    assertThat(back.source()).isEqualTo("d\u00e9signs/d.design");
    assertThat(back.outcome()).isEqualTo(t.outcome());
  }

  // ---- the step column, read by the design grammar ----

  /** {@link #violatedLines()} with step 3's text replaced, and the 1-based column where that text starts. */
  private static List<String> withStep3(String text) {
    List<String> lines = violatedLines();
    int s3 = lineOf(lines, "3 ");
    assertThat(lines.get(s3)).endsWith("  alloc staged 12GiB");
    lines.set(s3, lines.get(s3).replace("alloc staged 12GiB", text));
    return lines;
  }

  private static int step3Column() {
    List<String> lines = violatedLines();
    return lines.get(lineOf(lines, "3 ")).indexOf("alloc staged") + 1;
  }

  @Test
  void stepsAreReadAsTypedSteps() throws TraceFormatException {
    Trace back = TraceFormat.parse("t.trace", TraceFormat.print(violated()));
    assertThat(back.steps().get(2).step()).isEqualTo(new Alloc("staged", 12 * GIB, false));
    assertThat(back.steps().get(0).step()).isEqualTo(new Cpu("synthesize"));
  }

  @Test
  void anyWayTheDesignLanguageSpellsAStepReadsTheSame() throws TraceFormatException {
    String text = String.join("\n", withStep3("alloc  staged\t12288MiB")) + "\n";
    assertThat(TraceFormat.parse("t.trace", text)).isEqualTo(violated());
  }

  @Test
  void badStepTextIsReportedAtItsTokenInTheStepColumn() {
    int at = step3Column();
    int s3 = lineOf(violatedLines(), "3 ") + 1;
    assertAt(error(withStep3("alloc staged 12XB")), s3, at + 13, "bad size unit 'XB' in '12XB'");
    assertAt(error(withStep3("alloc staged")), s3, at, "alloc needs a size");
    assertAt(error(withStep3("lokc staged")), s3, at, "unknown keyword 'lokc'");
    assertAt(error(withStep3("sync staged")), s3, at + 5, "unexpected 'staged' after 'sync'");
    assertAt(error(withStep3("cpu synth\u00e8se")), s3, at + 4, "invalid cpu interval name 'synth\u00e8se'");
    assertAt(error(withStep3("free staged # gone")), s3, at + 12, "unexpected '#' (a step has no comment)");
  }
}
