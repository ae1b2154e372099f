package dev.interlock.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the C test program under LD_PRELOAD of libinterlock_capture.so (no GPU) and reads what it recorded. */
class CaptureLibraryTest {
  private static final Path ROOT = Path.of(System.getProperty("interlock.root", "."));
  private static final Path NATIVE = ROOT.resolve("capture/target/native");
  private static final Path LIBRARY = NATIVE.resolve("libinterlock_capture.so");
  private static final Path PROBE = ROOT.resolve("capture/target/native-test/capture_probe");
  private static final Path RUNTIME = ROOT.resolve("capture/target/native-test/libruntime-probe.so");

  @TempDir
  Path dir;

  /** Skips visibly where the library could not be built (no CUDA headers); fails instead under CI=true. */
  @BeforeAll
  static void libraryBuilt() throws IOException {
    if (Files.isRegularFile(LIBRARY) && Files.isRegularFile(PROBE)) {
      return;
    }
    Path skipped = NATIVE.resolve("SKIPPED");
    String why = "the capture library was not built: " + (Files.exists(skipped)
        ? Files.readString(skipped).strip() : "no " + LIBRARY + " or " + PROBE);
    if ("true".equals(System.getenv("CI"))) {
      Assertions.fail(why);
    }
    Assumptions.abort(why);
  }

  private record Run(int status, List<String> lines) {
    List<String[]> records(String event) {
      return lines.stream().filter(l -> !l.startsWith("#")).map(l -> l.split(" "))
          .filter(f -> f[2].equals(event)).collect(Collectors.toList());
    }
  }

  private Run run(String... args) throws Exception {
    return run(Map.of(), args);
  }

  private Run run(Map<String, String> env, String... args) throws Exception {
    return runProgram(PROBE, env, args);
  }

  private Run runProgram(Path program, Map<String, String> env, String... args) throws Exception {
    Path out = dir.resolve("run.capture");
    Files.deleteIfExists(out);
    List<String> command = new ArrayList<>(List.of(program.toString()));
    command.addAll(Arrays.asList(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve("probe.out").toFile());
    pb.environment().put("LD_PRELOAD", LIBRARY.toString());
    pb.environment().put("NVTX_INJECTION64_PATH", LIBRARY.toString());
    pb.environment().put("INTERLOCK_CAPTURE_OUT", out.toString());
    pb.environment().putAll(env);
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the probe ends").isTrue();
    byte[] bytes = Files.readAllBytes(out);
    int end = 0;
    while (end < bytes.length && bytes[end] != 0) {
      end++; // the file is mapped in chunks: what follows the records is NUL bytes
    }
    String text = new String(bytes, 0, end, StandardCharsets.UTF_8);
    return new Run(p.exitValue(), List.of(text.split("\n")));
  }

  private static String value(String[] record, String key) {
    for (int i = 3; i < record.length; i++) {
      if (record[i].startsWith(key + "=")) {
        return record[i].substring(key.length() + 1);
      }
    }
    throw new AssertionError("no " + key + " in " + String.join(" ", record));
  }

  @Test
  void recordsTheApplicationsLocksThreadsAndNvtxAndNothingOfTheDriversLocks() throws Exception {
    Run run = run("run");
    assertThat(run.status()).isZero();
    assertThat(run.lines().get(0)).isEqualTo("# interlock capture v1");
    assertThat(run.lines().get(1)).matches("# pid=\\d+ program=\\S*capture_probe clock=CLOCK_MONOTONIC start_ns=\\d+");
    for (String line : run.lines().subList(2, run.lines().size())) {
      assertThat(line).matches("\\d+ \\d+ [a-z_]+( [a-z_]+=([\\x21-\\x7E&&[^=%]]|%[0-9A-F]{2})+)*");
    }
    // the stand-in driver took its mutex 1000 times and glibc its own locks: none of them recorded
    assertThat(run.lines()).hasSizeLessThan(60);

    Set<String> children = run.records("thread_start").stream().map(r -> value(r, "child")).collect(Collectors.toSet());
    assertThat(children).hasSize(2).doesNotContain("0");
    assertThat(run.records("thread_join").stream().map(r -> value(r, "child"))).containsExactlyInAnyOrderElementsOf(children);
    String named = value(run.records("name").stream().filter(r -> value(r, "name").equals("compute_mtx")).findFirst()
        .orElseThrow(), "obj");
    Set<String> mutexes = new LinkedHashSet<>();
    for (String child : children) {
      List<String> locks = run.lines().stream().map(l -> l.split(" ")).filter(f -> f.length > 2 && f[1].equals(child))
          .filter(f -> f[2].equals("lock") || f[2].equals("unlock")).map(f -> f[2] + " " + value(f, "obj"))
          .collect(Collectors.toList());
      assertThat(locks).hasSize(6);
      for (int i = 0; i < 6; i += 2) {
        assertThat(locks.get(i)).startsWith("lock mutex@0x");
        assertThat(locks.get(i + 1)).isEqualTo("un" + locks.get(i));
        mutexes.add(locks.get(i).substring(5));
      }
      assertThat(run.lines()).anySatisfy(l -> assertThat(l).matches("\\d+ " + child + " thread_name name=worker-\\d"));
      assertThat(run.lines().stream().filter(l -> l.matches("\\d+ " + child + " range_push name=job domain=-"))).hasSize(3);
      assertThat(run.lines().stream().filter(l -> l.matches("\\d+ " + child + " range_pop domain=-"))).hasSize(3);
      assertThat(run.lines().stream().filter(l -> l.matches("\\d+ " + child + " sync_(acquire_start|acquire|release) obj=sync@0x\\p{XDigit}+")))
          .hasSize(3);
    }
    assertThat(mutexes).hasSize(1).doesNotContain(named);
    // the NVTX-named mutex, inside a range of the "probe" domain
    assertThat(run.lines()).anySatisfy(l -> assertThat(l).endsWith("range_push name=named%20lock domain=probe"));
    assertThat(run.records("lock").stream().map(r -> value(r, "obj"))).contains(named);
    assertThat(run.records("name").stream().map(r -> value(r, "name"))).contains("rust%20mutex");
    assertThat(run.records("sem_post")).hasSize(2);
    assertThat(run.records("sem_wait")).hasSize(2).allSatisfy(r -> assertThat(value(r, "rc")).isEqualTo("0"));
    // thread_start carries the child's start time and is written before the child runs: it comes before the child's
    // first record in time and in the file (the child's thread_name is its first)
    List<String> lines = run.lines();
    for (String[] start : run.records("thread_start")) {
      String child = value(start, "child");
      int at = lines.indexOf(String.join(" ", start));
      int first = IntStream.range(0, lines.size())
          .filter(i -> !lines.get(i).startsWith("#") && lines.get(i).split(" ")[1].equals(child)).findFirst()
          .orElseThrow();
      assertThat(at).as("thread_start of %s before its records", child).isLessThan(first);
      assertThat(Long.parseLong(start[0])).isLessThan(Long.parseLong(lines.get(first).split(" ")[0]));
    }
  }

  /** The records of one thread, as "EVENT key=value..." without NS and TID. */
  private static List<String> of(Run run, String tid) {
    return run.lines().stream().filter(l -> !l.startsWith("#")).map(l -> l.split(" ", 3)).filter(f -> f[1].equals(tid))
        .map(f -> f[2]).collect(Collectors.toList());
  }

  @Test
  void recordsTimedAndTryCallsTakenOrNotRwlocksWithTheirModeStartEndRangesAcrossThreadsAndMarks() throws Exception {
    Run run = run("more", RUNTIME.toString());
    assertThat(run.status()).as("the probe's own checks of the calls' results").isZero();
    String main = run.records("thread_start").get(0)[1];
    String other = value(run.records("thread_start").get(0), "child");
    List<String> mine = of(run, main);
    String sem = value(run.records("sem_trywait").get(0), "obj");
    assertThat(sem).startsWith("sem@0x");
    assertThat(mine.subList(0, 6)).containsExactly(
        "sem_trywait obj=" + sem + " rc=11", // EAGAIN: not taken
        "sem_timedwait obj=" + sem + " rc=110", // ETIMEDOUT: not taken
        "sem_post obj=" + sem, "sem_post obj=" + sem,
        "sem_trywait obj=" + sem + " rc=0", "sem_timedwait obj=" + sem + " rc=0");
    // the timed lock that timed out on the other thread, while main held the mutex; then main's own, taken
    String timed = value(run.records("timedlock").get(0), "obj");
    assertThat(of(run, other)).containsExactly("timedlock obj=" + timed + " rc=110", "range_end id=1");
    assertThat(mine).containsSubsequence("lock obj=" + timed + " rc=0", "thread_start child=" + other + " rc=0",
        "thread_join child=" + other + " rc=0", "unlock obj=" + timed, "timedlock obj=" + timed + " rc=0",
        "unlock obj=" + timed);
    String rw = value(run.records("rdlock").get(0), "obj");
    assertThat(rw).startsWith("rwlock@0x");
    assertThat(mine).containsSubsequence("rdlock obj=" + rw + " rc=0", "rdlock obj=" + rw + " rc=0",
        "wrlock obj=" + rw + " rc=16", "rdunlock obj=" + rw, "rdunlock obj=" + rw, "wrlock obj=" + rw + " rc=0",
        "wrunlock obj=" + rw);
    // a start/end range started on main and ended on the other thread pairs by its id; one in a domain on main
    assertThat(mine).contains("range_start name=upload domain=- id=1")
        .containsSubsequence("range_start name=stage domain=probe id=2", "mark name=checkpoint domain=-",
            "mark name=domain%20mark domain=probe", "range_end id=2");
    assertThat(mine).doesNotContain("range_end id=1");
  }

  @Test
  void ignoreLibsDropsTheLocksOfTheNamedLibraryAndKeepsTheSameMutexLockedByTheExecutable() throws Exception {
    Run all = run("more", RUNTIME.toString());
    String shared = value(all.records("lock").get(all.records("lock").size() - 1), "obj");
    long sharedLocks = all.records("lock").stream().filter(r -> value(r, "obj").equals(shared)).count();
    assertThat(sharedLocks).as("5 locks from libruntime-probe.so and 3 from the executable").isEqualTo(8);
    assertThat(all.records("sem_wait")).hasSize(5);

    Run ignoring = run(Map.of("INTERLOCK_CAPTURE_IGNORE_LIBS", "libnothing.so:libruntime-probe"), "more", RUNTIME.toString());
    assertThat(ignoring.status()).isZero();
    String kept = value(ignoring.records("lock").get(ignoring.records("lock").size() - 1), "obj");
    assertThat(ignoring.records("lock").stream().filter(r -> value(r, "obj").equals(kept))).hasSize(3);
    assertThat(ignoring.records("unlock").stream().filter(r -> value(r, "obj").equals(kept))).hasSize(3);
    assertThat(ignoring.records("sem_wait")).isEmpty();
    // everything else is still there: the executable's own semaphore, timed locks, rwlocks and NVTX
    assertThat(ignoring.records("sem_post")).hasSize(2);
    assertThat(ignoring.lines()).hasSize(all.lines().size() - 5 * 4);
  }

  @Test
  void staticCudartsOwnMutexCallsAreDroppedByItsSymbolNamesUnlessTheExecutableIsStripped() throws Exception {
    // the probe's libcudart_static_probe_teardown takes a mutex 60 times with trylock, as static cudart does at exit
    Run named = run("more", RUNTIME.toString());
    assertThat(named.status()).isZero();
    assertThat(named.records("trylock")).isEmpty();
    Run stripped = runProgram(PROBE.resolveSibling("capture_probe_stripped"), Map.of(), "more", RUNTIME.toString());
    assertThat(stripped.status()).isZero();
    assertThat(stripped.records("trylock")).hasSize(60).allSatisfy(r -> assertThat(value(r, "rc")).isEqualTo("0"));
    assertThat(stripped.lines()).hasSize(named.lines().size() + 120);
  }

  @Test
  void theProgramsExitStatusIsUnchanged() throws Exception {
    assertThat(run("run", "7").status()).isEqualTo(7);
  }

  @Test
  void aProgramThatAbortsLeavesItsRecordsOnDisk() throws Exception {
    Run run = run("abort");
    assertThat(run.status()).isEqualTo(128 + 6);
    assertThat(run.lines().get(0)).isEqualTo("# interlock capture v1");
    assertThat(run.lines().stream().filter(l -> !l.startsWith("#")).map(l -> l.split(" ")[2]))
        .containsExactly("lock", "unlock");
  }
}
