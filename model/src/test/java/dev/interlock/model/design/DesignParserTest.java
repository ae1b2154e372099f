package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DesignParserTest {
  static final String EXAMPLE = String.join("\n",
      "# comment",
      "design two-lock",
      "vram 16GiB                       # sizes: integer or decimal",
      "mutex mem_mtx                    # one mutex per line",
      "mutex compute_mtx",
      "semaphore vram_units 16          # counting semaphore",
      "role gpu_worker x3 jobs 2        # 3 threads, each runs the body 2 times",
      "  cpu synthesize",
      "  lock mem_mtx",
      "  alloc staged 12GiB",
      "  unlock mem_mtx",
      "  lock compute_mtx",
      "  alloc scratch 2GiB",
      "  kernel ntt_msm uses staged scratch",
      "  free scratch",
      "  free staged",
      "  unlock compute_mtx",
      "  cpu b_g2_msm for 0.5s",
      "  cpu epilogue",
      "");

  /** Lines 1-4; a role starts at line 5 and its first step is line 6. */
  static final String HEAD = "design d\nvram 1GiB\nmutex m\nsemaphore s 2\n";

  static Design parse(String text) throws DesignException {
    return DesignParser.parse("t.design", text);
  }

  static String error(String text) {
    DesignException e = assertThrows(DesignException.class, () -> parse(text));
    return e.getMessage();
  }

  @Test
  void parsesTheExample() throws DesignException {
    Design d = parse(EXAMPLE);
    assertThat(d.name()).isEqualTo("two-lock");
    assertThat(d.vram()).isEqualTo(16L << 30);
    assertThat(d.mutexes()).containsExactly("mem_mtx", "compute_mtx");
    assertThat(d.semaphores()).containsExactly(new Semaphore("vram_units", 16));
    assertThat(d.roles()).hasSize(1);
    Role r = d.roles().get(0);
    assertThat(r.name()).isEqualTo("gpu_worker");
    assertThat(r.threads()).isEqualTo(3);
    assertThat(r.jobs()).isEqualTo(2);
    assertThat(r.body()).containsExactly(
        new Cpu("synthesize"),
        new Lock("mem_mtx"),
        new Alloc("staged", 12L * 1024 * 1024 * 1024, false),
        new Unlock("mem_mtx"),
        new Lock("compute_mtx"),
        new Alloc("scratch", 2L * 1024 * 1024 * 1024, false),
        new Kernel("ntt_msm", List.of("staged", "scratch"), Optional.empty()),
        new Free("scratch"),
        new Free("staged"),
        new Unlock("compute_mtx"),
        new Cpu("b_g2_msm", Optional.of(Duration.ofMillis(500))),
        new Cpu("epilogue"));
  }

  @Test
  void parsesEveryStepForm() throws DesignException {
    Design d = parse(String.join("\n",
        "design all",
        "role w",
        "  acquire s",
        "  acquire s 3",
        "  release s 3",
        "  release s",
        "  alloc a 1.5GiB async",
        "  alloc b 100B",
        "  kernel k",
        "  kernel k2 for 120ms",
        "  kernel k3 uses a b for 40us",
        "  free a",
        "  trim",
        "  sync",
        "semaphore s 0",
        "vram 512MB"));
    assertThat(d.vram()).isEqualTo(512L << 20);
    assertThat(d.semaphores()).containsExactly(new Semaphore("s", 0));
    Role r = d.roles().get(0);
    assertThat(r.threads()).isEqualTo(1);
    assertThat(r.jobs()).isEqualTo(1);
    assertThat(r.body()).containsExactly(
        new Acquire("s", 1),
        new Acquire("s", 3),
        new Release("s", 3),
        new Release("s", 1),
        new Alloc("a", 3L << 29, true),
        new Alloc("b", 100, false),
        new Kernel("k", List.of()),
        new Kernel("k2", List.of(), Optional.of(Duration.ofMillis(120))),
        new Kernel("k3", List.of("a", "b"), Optional.of(Duration.ofNanos(40_000))),
        new Free("a"),
        new Trim(),
        new Sync());
  }

  @Test
  void roleCountsAreOptional() throws DesignException {
    Design d = parse(HEAD + "role a\n  sync\nrole b x4\n  sync\nrole c jobs 7\n  sync\nrole e x2 jobs 3\n  sync\n");
    assertThat(d.roles()).extracting(Role::name, Role::threads, Role::jobs)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("a", 1, 1),
            org.assertj.core.groups.Tuple.tuple("b", 4, 1),
            org.assertj.core.groups.Tuple.tuple("c", 1, 7),
            org.assertj.core.groups.Tuple.tuple("e", 2, 3));
  }

  @Test
  void layoutCommentsTabsCrlfAndBom() throws DesignException {
    String text = "\uFEFF# header\r\ndesign\td#c\r\n\r\nvram 1GiB\r\n   # indented comment first\r\n"
        + "role r\tx2\r\n\t lock m # the lock\r\n\r\n   \t\r\n  # comment in body\r\n\tunlock m\r\nmutex m";
    Design d = parse(text);
    assertThat(d.name()).isEqualTo("d");
    assertThat(d.roles().get(0).threads()).isEqualTo(2);
    assertThat(d.roles().get(0).body()).containsExactly(new Lock("m"), new Unlock("m"));
  }

  @Test
  void loneCarriageReturnsEndLines() throws DesignException {
    assertThat(parse("design d\rvram 1GiB\rrole r\r  sync\r")).isEqualTo(parse("design d\nvram 1GiB\nrole r\n  sync\n"));
    assertThat(error("design d\r\rvram 1GiB\r\nrole r\r  lock\r"))
        .isEqualTo("t.design:5:3: lock needs a mutex name");
  }

  @Test
  void forwardReferencesAreAllowed() throws DesignException {
    Design d = parse("design d\nrole r\n  lock late\n  acquire later 2\nvram 1GiB\nmutex late\nsemaphore later 2\n");
    assertThat(d.roles().get(0).body()).containsExactly(new Lock("late"), new Acquire("later", 2));
  }

  @Test
  void keywordsMayBeNames() throws DesignException {
    Design d = parse("design role\nvram 1GiB\nmutex lock\nsemaphore for 1\nrole jobs x2 jobs 2\n"
        + "  lock lock\n  acquire for\n  kernel uses uses uses for\n  kernel for for 1s\n  cpu for for 1s\n"
        + "  alloc async 1B async\n  unlock lock\n");
    assertThat(d.roles().get(0).body()).containsExactly(
        new Lock("lock"),
        new Acquire("for", 1),
        new Kernel("uses", List.of("uses", "for")),
        new Kernel("for", List.of(), Optional.of(Duration.ofSeconds(1))),
        new Cpu("for", Optional.of(Duration.ofSeconds(1))),
        new Alloc("async", 1, true),
        new Unlock("lock"));
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        // unknown keywords
        Arguments.of(HEAD + "role r\n  lok m\n",
            "t.design:6:3: unknown keyword 'lok' (expected one of: lock, unlock, acquire, release, alloc, free,"
                + " trim, sync, kernel, cpu, spawn, join, signal, wait, if, else, end, on, choose, or); did you mean 'lock'?"),
        Arguments.of(HEAD + "role r\n  frobnicate m\n",
            "t.design:6:3: unknown keyword 'frobnicate' (expected one of: lock, unlock, acquire, release, alloc,"
                + " free, trim, sync, kernel, cpu, spawn, join, signal, wait, if, else, end, on, choose, or)"),
        Arguments.of(HEAD + "mutx a\n",
            "t.design:5:1: unknown keyword 'mutx' (expected one of: design, vram, mutex, semaphore, role, pool, buffer,"
                + " task); did you mean 'mutex'?"),
        Arguments.of(HEAD + "lock m\n", "t.design:5:1: step 'lock' must be indented under a role"),
        Arguments.of(HEAD + "role r\n  sync\n  mutex q\n", "t.design:7:3: 'mutex' must start at column 1, not be indented"),
        // references
        Arguments.of(HEAD + "role r\n  lock foo\n", "t.design:6:8: undeclared mutex 'foo'"),
        Arguments.of(HEAD + "role r\n  lock n\n", "t.design:6:8: undeclared mutex 'n'"),
        Arguments.of("design d\nvram 1GiB\nmutex mem_mtx\nrole r\n  lock mem_mt\n",
            "t.design:5:8: undeclared mutex 'mem_mt'; did you mean 'mem_mtx'?"),
        Arguments.of("design d\nvram 1GiB\nsemaphore units 1\nrole r\n  release Units 2\n",
            "t.design:5:11: undeclared semaphore 'Units'; did you mean 'units'?"),
        Arguments.of(HEAD + "role r\n  release t 2\n", "t.design:6:11: undeclared semaphore 't'"),
        Arguments.of(HEAD + "role r\n  acquire m\n", "t.design:6:11: 'm' is a mutex, not a semaphore"),
        Arguments.of(HEAD + "role r\n  unlock s\n", "t.design:6:10: 's' is a semaphore, not a mutex"),
        Arguments.of(HEAD + "role r\n  lock r\n", "t.design:6:8: 'r' is a role, not a mutex"),
        // sizes and counts
        Arguments.of(HEAD + "role r\n  alloc b 12XB\n",
            "t.design:6:11: bad size unit 'XB' in '12XB': use B, KiB, MiB or GiB"),
        Arguments.of("design d\nvram 12\n", "t.design:2:6: size '12' needs a unit: B, KiB, MiB or GiB"),
        Arguments.of(HEAD + "role r\n  alloc b 0.3B\n", "t.design:6:11: size '0.3B' is not a whole number of bytes"),
        Arguments.of(HEAD + "role r\n  acquire s 0\n", "t.design:6:13: acquire needs at least 1 permit"),
        Arguments.of(HEAD + "role r\n  release s two\n",
            "t.design:6:13: bad permit count 'two' (expected a positive integer)"),
        Arguments.of("design d\nsemaphore s -1\n",
            "t.design:2:13: bad permit count '-1' (expected a non-negative integer)"),
        Arguments.of("design d\nsemaphore s 99999999999\n",
            "t.design:2:13: permit count '99999999999' is too large (at most 2147483647)"),
        Arguments.of(HEAD + "role r\n  acquire s 2147483648\n",
            "t.design:6:13: permit count '2147483648' is too large (at most 2147483647)"),
        // missing arguments
        Arguments.of(HEAD + "role r\n  lock\n", "t.design:6:3: lock needs a mutex name"),
        Arguments.of(HEAD + "role r\n  acquire\n", "t.design:6:3: acquire needs a semaphore name"),
        Arguments.of(HEAD + "role r\n  alloc b\n", "t.design:6:3: alloc needs a size, e.g. alloc b 12GiB"),
        Arguments.of(HEAD + "role r\n  free # nothing\n", "t.design:6:3: free needs a buffer name"),
        Arguments.of("design d\nsemaphore s\n",
            "t.design:2:1: semaphore needs an initial permit count, e.g. semaphore s 16"),
        Arguments.of("design\n", "t.design:1:1: design needs a name, e.g. design two-lock"),
        Arguments.of(HEAD + "role\n", "t.design:5:1: role needs a name, e.g. role gpu_worker x3 jobs 2"),
        Arguments.of(HEAD + "role r x2 jobs\n", "t.design:5:11: jobs needs a count, e.g. jobs 2"),
        Arguments.of(HEAD + "role r\n  cpu c for\n", "t.design:6:9: for needs a duration, e.g. for 0.5s"),
        // extra tokens
        Arguments.of(HEAD + "role r\n  lock m xyz\n", "t.design:6:10: unexpected 'xyz' after 'lock m'"),
        Arguments.of(HEAD + "role r\n  trim now\n", "t.design:6:8: unexpected 'now' after 'trim'"),
        Arguments.of(HEAD + "role r\n  alloc b 1GiB sync\n",
            "t.design:6:16: unexpected 'sync' after 'alloc b 1GiB' (expected async or keep)"),
        Arguments.of(HEAD + "role r\n  alloc b 1GiB async now\n",
            "t.design:6:22: unexpected 'now' after 'alloc b 1GiB async'"),
        Arguments.of(HEAD + "role r\n  cpu c fro 1s\n",
            "t.design:6:9: unexpected 'fro' after 'cpu c' (expected for DURATION)"),
        Arguments.of(HEAD + "role r\n  kernel k 1s\n",
            "t.design:6:12: unexpected '1s' after 'kernel k' (expected uses or for)"),
        Arguments.of(HEAD + "role r\n  kernel k uses a for 1s b\n",
            "t.design:6:26: unexpected 'b' after 'kernel k uses a for 1s'"),
        Arguments.of("design d e\n", "t.design:1:10: unexpected 'e' after 'design d'"),
        Arguments.of(HEAD + "role r foo\n", "t.design:5:8: unexpected 'foo' after 'role r' (expected xN or jobs N)"),
        Arguments.of(HEAD + "role r x2 x3\n", "t.design:5:11: unexpected 'x3' after 'role r x2' (expected jobs N)"),
        Arguments.of(HEAD + "role r jobs 2 x3\n",
            "t.design:5:15: unexpected 'x3' after 'role r jobs 2' (the thread count xN comes before jobs N)"),
        // duplicates
        Arguments.of(HEAD + "mutex m\n", "t.design:5:7: duplicate name 'm' (first declared at line 3)"),
        Arguments.of(HEAD + "semaphore m 1\n", "t.design:5:11: duplicate name 'm' (first declared at line 3)"),
        Arguments.of(HEAD + "role s\n  sync\n", "t.design:5:6: duplicate name 's' (first declared at line 4)"),
        Arguments.of(HEAD + "role r\n  sync\nmutex r\n", "t.design:7:7: duplicate name 'r' (first declared at line 5)"),
        Arguments.of(HEAD + "design e\n", "t.design:5:1: duplicate design line (first at line 1)"),
        Arguments.of(HEAD + "vram 2GiB\n", "t.design:5:1: duplicate vram line (first at line 2)"),
        // missing top-level lines: always 1:1
        Arguments.of("", "t.design:1:1: missing 'design NAME' line"),
        Arguments.of("vram 1GiB\nrole r\n  sync\n", "t.design:1:1: missing 'design NAME' line"),
        Arguments.of("design d\nrole r\n  sync\n", "t.design:1:1: missing 'vram SIZE' line"),
        Arguments.of(HEAD, "t.design:1:1: design has no role"),
        // role counts
        Arguments.of(HEAD + "role r x0\n", "t.design:5:8: role needs at least 1 thread"),
        Arguments.of(HEAD + "role r x1 jobs 0\n", "t.design:5:16: role needs at least 1 job"),
        Arguments.of(HEAD + "role r x-1\n",
            "t.design:5:8: bad thread count 'x-1' (expected x followed by a positive integer, e.g. x3)"),
        Arguments.of(HEAD + "role r xa\n",
            "t.design:5:8: bad thread count 'xa' (expected x followed by a positive integer, e.g. x3)"),
        Arguments.of(HEAD + "role r 3\n", "t.design:5:8: bad thread count '3' (write x3 for 3 threads)"),
        Arguments.of(HEAD + "role r x2147483648\n",
            "t.design:5:8: thread count 'x2147483648' is too large (at most 2147483647)"),
        Arguments.of(HEAD + "role r jobs -2\n", "t.design:5:13: bad job count '-2' (expected a positive integer)"),
        Arguments.of(HEAD + "role r jobs 12345678901234567890\n",
            "t.design:5:13: job count '12345678901234567890' is too large (at most 2147483647)"),
        // role bodies
        Arguments.of("design d\n  sync\n",
            "t.design:2:3: indented line outside a role (steps must follow a 'role' line)"),
        Arguments.of(HEAD + "role r\n  sync\nmutex q\n  sync\n",
            "t.design:8:3: indented line outside a role (steps must follow a 'role' line)"),
        Arguments.of(HEAD + "role r # no steps\n\nrole q\n  sync\n", "t.design:5:6: role r has no steps"),
        Arguments.of(HEAD + "role q\n  sync\nrole r x2\n  # only a comment\n", "t.design:7:6: role r has no steps"),
        // kernels and durations
        Arguments.of(HEAD + "role r\n  kernel k uses\n", "t.design:6:12: uses needs at least one buffer"),
        Arguments.of(HEAD + "role r\n  kernel k uses for 1s\n", "t.design:6:12: uses needs at least one buffer"),
        Arguments.of(HEAD + "role r\n  kernel k uses a b a\n", "t.design:6:21: kernel k uses buffer 'a' twice"),
        Arguments.of(HEAD + "role r\n  kernel k uses a 1s\n",
            "t.design:6:19: invalid buffer name '1s' (a name starts with a letter or _ and continues with"
                + " letters, digits, _, . or -) (missing 'for' before the duration?)"),
        Arguments.of(HEAD + "role r\n  cpu c for 0s\n", "t.design:6:13: duration '0s' must be positive"),
        Arguments.of(HEAD + "role r\n  kernel k for 5m\n",
            "t.design:6:16: bad duration '5m': expected e.g. 0.5s, 120ms, 40us"),
        // names
        Arguments.of(HEAD + "mutex 1m\n",
            "t.design:5:7: invalid mutex name '1m' (a name starts with a letter or _ and continues with"
                + " letters, digits, _, . or -)"),
        Arguments.of(HEAD + "role r\n  free b@\n",
            "t.design:6:8: invalid buffer name 'b@' (a name starts with a letter or _ and continues with"
                + " letters, digits, _, . or -)"),
        // columns count tabs and non-BMP characters as one
        Arguments.of(HEAD + "role r\n\t\tlock\tm\tx\n", "t.design:6:10: unexpected 'x' after 'lock m'"),
        Arguments.of(HEAD + "role r\n  cpu \uD83D\uDE00 x\n",
            "t.design:6:7: invalid cpu interval name '\uD83D\uDE00' (a name starts with a letter or _ and"
                + " continues with letters, digits, _, . or -)"),
        // junk is escaped and shortened in messages
        Arguments.of(HEAD + "mutex a\u00a0b\n",
            "t.design:5:7: invalid mutex name 'a\\u00a0b' (a name starts with a letter or _ and continues with"
                + " letters, digits, _, . or -)"),
        Arguments.of("\u0000\u0001junk", "t.design:1:1: unknown keyword '\\u0000\\u0001junk' (expected one of:"
            + " design, vram, mutex, semaphore, role, pool, buffer, task)"),
        Arguments.of("design " + "a".repeat(1000) + "!",
            "t.design:1:8: invalid design name '" + "a".repeat(37) + "...' (a name starts with a letter or _"
                + " and continues with letters, digits, _, . or -)"),
        Arguments.of("design d\nvram " + "9".repeat(100_000) + "\u0007GiB",
            "t.design:2:6: bad size '" + "9".repeat(37) + "...': expected a number and a unit, e.g. 12GiB"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void reportsErrorsWithPositions(String text, String expected) {
    assertThat(error(text)).isEqualTo(expected);
  }

  @Test
  void exceptionCarriesItsParts() {
    DesignException e = assertThrows(DesignException.class,
        () -> DesignParser.parse("designs/x.design", HEAD + "role r\n  lock foo\n"));
    assertThat(e.file()).isEqualTo("designs/x.design");
    assertThat(e.line()).isEqualTo(6);
    assertThat(e.column()).isEqualTo(8);
    assertThat(e.detail()).isEqualTo("undeclared mutex 'foo'");
    assertThat(e.getMessage()).isEqualTo("designs/x.design:6:8: undeclared mutex 'foo'");
  }

  @Test
  void syntaxErrorsComeBeforeReferenceErrors() {
    assertThat(error(HEAD + "role r\n  lock nope\n  lock m extra\n"))
        .isEqualTo("t.design:7:10: unexpected 'extra' after 'lock m'");
  }

  @Test
  void firstBadReferenceInFileOrder() {
    assertThat(error(HEAD + "role r\n  lock m\n  acquire zz\n  lock yy\nrole q\n  lock aa\n"))
        .isEqualTo("t.design:7:11: undeclared semaphore 'zz'");
  }

  @Test
  void firstErrorInFileOrderWins() {
    assertThat(error("design d\nvram 1GiB\nvram 2GiB\nmutex 1x\n"))
        .isEqualTo("t.design:3:1: duplicate vram line (first at line 2)");
  }

  @Test
  void readsFiles(@TempDir Path dir) throws IOException, DesignException {
    Path f = dir.resolve("two-lock.design");
    Files.writeString(f, EXAMPLE, StandardCharsets.UTF_8);
    assertThat(DesignParser.parse(f)).isEqualTo(parse(EXAMPLE));

    Path bad = dir.resolve("bad.design");
    Files.writeString(bad, HEAD + "role r\n  lock q\n");
    assertThatThrownBy(() -> DesignParser.parse(bad))
        .isInstanceOf(DesignException.class)
        .hasMessage(bad + ":6:8: undeclared mutex 'q'");
  }

  @Test
  void missingFileIsADesignException(@TempDir Path dir) {
    Path f = dir.resolve("nope.design");
    assertThatThrownBy(() -> DesignParser.parse(f))
        .isInstanceOf(DesignException.class)
        .hasMessage(f + ":1:1: cannot read file: no such file");
  }

  @Test
  void directoryIsADesignException(@TempDir Path dir) {
    DesignException e = assertThrows(DesignException.class, () -> DesignParser.parse(dir));
    assertThat(e.getMessage()).startsWith(dir + ":1:1: cannot read file: ");
  }

  @Test
  void malformedUtf8IsReportedWhereItIs(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad-utf8.design");
    byte[] head = "design d\nvram 1GiB\nmutex \u00e9".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[head.length + 2];
    System.arraycopy(head, 0, bytes, 0, head.length);
    bytes[head.length] = (byte) 0xff;
    bytes[head.length + 1] = '\n';
    Files.write(f, bytes);
    assertThatThrownBy(() -> DesignParser.parse(f))
        .isInstanceOf(DesignException.class)
        .hasMessage(f + ":3:8: file is not valid utf-8 (byte 0xff)");

    Path truncated = dir.resolve("truncated.design");
    Files.write(truncated, new byte[] {'d', (byte) 0xe2, (byte) 0x82});
    assertThatThrownBy(() -> DesignParser.parse(truncated))
        .isInstanceOf(DesignException.class)
        .hasMessage(truncated + ":1:2: file is not valid utf-8 (byte 0xe2)");
  }

  @Test
  void neverThrowsAnythingElse() {
    Random rnd = new Random(42);
    String alphabet = "design vram mutex semaphore role lock unlock acquire release alloc free trim sync kernel cpu"
        + " uses for async jobs x0 x3 1GiB 0.5s 12 -1 # \t \n \n  \r \u0000 \uD83D \u00e9 m s r a b . -";
    String[] words = alphabet.split(" ");
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      int len = rnd.nextInt(40);
      for (int j = 0; j < len; j++) {
        switch (rnd.nextInt(4)) {
          case 0 -> sb.append((char) rnd.nextInt(0x10000));
          case 1 -> sb.append(words[rnd.nextInt(words.length)]).append(' ');
          case 2 -> sb.append(rnd.nextBoolean() ? "\n  " : "\n");
          default -> sb.append(words[rnd.nextInt(words.length)]);
        }
      }
      parsesOrReports(sb.toString());
    }
  }

  @Test
  void mutationsOfTheExampleNeverThrowAnythingElse() {
    Random rnd = new Random(7);
    String chars = " \t\n#x0123456789.-_abcdefghijklmnopqrstuvwxyzGiBMK";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder(EXAMPLE);
      int edits = 1 + rnd.nextInt(3);
      for (int e = 0; e < edits && sb.length() > 0; e++) {
        int at = rnd.nextInt(sb.length());
        switch (rnd.nextInt(3)) {
          case 0 -> sb.deleteCharAt(at);
          case 1 -> sb.insert(at, chars.charAt(rnd.nextInt(chars.length())));
          default -> sb.setCharAt(at, chars.charAt(rnd.nextInt(chars.length())));
        }
      }
      parsesOrReports(sb.toString());
    }
  }

  @Test
  void hugeInputs() {
    parsesOrReports("design " + "x".repeat(2_000_000));
    parsesOrReports("design d\nvram 1GiB\nrole r\n  kernel k uses " + "b ".repeat(200_000));
    parsesOrReports("design d\nvram 1GiB\nrole r x" + "9".repeat(1_000_000));
    parsesOrReports("\n".repeat(1_000_000));
    parsesOrReports(" ".repeat(1_000_000) + "sync");
    parsesOrReports("design d\nvram 1GiB\nrole r\n  cpu c for " + "1".repeat(100_000) + ".5s");
  }

  private static void parsesOrReports(String text) {
    try {
      DesignParser.parse("fuzz", text);
    } catch (DesignException e) {
      assertThat(e.detail()).doesNotStartWith("internal error");
      assertThat(e.line()).isPositive();
      assertThat(e.column()).isPositive();
      assertThat(e.getMessage()).hasSizeLessThan(1000);
    }
  }
}
