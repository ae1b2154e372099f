package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static dev.interlock.cli.CliTest.parseJson;
import static dev.interlock.cli.CliTest.printedTrace;
import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check --random}: the violating schedule is shrunk before it is shown, unless {@code --no-shrink}. */
class CheckRandomShrinkTest {
  @TempDir
  Path tmp;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> json(String... args) {
    CliTest.Run r = run(args);
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    return (Map<String, Object>) parseJson(r.out());
  }

  @Test
  void twoLockAtThreeWorkersShrinksToTwoWorkersAndAtMostNineTransitionsForSeeds1To50() {
    for (int seed = 1; seed <= 50; seed++) {
      Map<String, Object> m = json("check", design("two-lock"), "--threads", "gpu_worker=3", "--random", "100", "--seed", "" + seed, "--json");
      assertThat(m.get("verdict")).as("seed %d", seed).isEqualTo("OOM");
      assertThat(m.get("threads")).as("seed %d", seed).isEqualTo(Map.of("gpu_worker", 2L));
      assertThat((Long) m.get("length")).as("seed %d", seed).isLessThanOrEqualTo(9L);
      assertThat(m.get("original_threads")).as("seed %d", seed).isEqualTo(Map.of("gpu_worker", 3L));
      assertThat((Long) m.get("original_length")).as("seed %d", seed).isGreaterThanOrEqualTo((Long) m.get("length"));
      assertThat((List<Object>) m.get("trace")).hasSize(((Long) m.get("length")).intValue());
      assertThat((Long) m.get("shrink_attempts")).isPositive();
    }
  }

  @Test
  void manySmallReportsOomWithElevenThreadsAndAtMost49TransitionsForSeeds1To20() {
    for (int seed = 1; seed <= 20; seed++) {
      Map<String, Object> m = json("check", design("many-small"), "--random", "100", "--seed", "" + seed, "--json");
      assertThat(m.get("verdict")).as("seed %d", seed).isEqualTo("OOM");
      assertThat(m.get("threads")).as("seed %d", seed).isEqualTo(Map.of("w", 11L));
      assertThat((Long) m.get("length")).as("seed %d", seed).isBetween(33L, 49L);
      assertThat(m.get("original_threads")).isEqualTo(Map.of("w", 12L));
    }
  }

  @Test
  void textShowsTheScheduleAsFoundAndAsShrunkThenTheShrunkTraceWhichReplaysAndIsTheOneWritten() throws Exception {
    Path file = tmp.resolve("shrunk.trace");
    CliTest.Run r = run("check", design("two-lock"), "--threads", "gpu_worker=3", "--random", "100", "--seed", "7",
        "--trace-out", file.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).containsPattern("(?m)^found     [0-9]+ transitions, threads gpu_worker=3, jobs gpu_worker=2 \\(the schedule of seed 7\\)$")
        .containsPattern("(?m)^shrunk    9 transitions, threads gpu_worker=2, jobs gpu_worker=1 \\([0-9]+ schedules replayed, [0-9.]+ s; ")
        .contains("shrunk violating schedule (9 transitions, gpu_worker=2; from the schedule of seed 7):");
    Trace printed = TraceFormat.parse("<out>", printedTrace(r.out()));
    assertThat(printed.length()).isEqualTo(9);
    assertThat(printed.params().threads()).containsExactly(Map.entry("gpu_worker", 2));
    assertThat(printed.seed()).contains(7L);
    assertThat(TraceFormat.read(file)).isEqualTo(printed);
    Design d = DesignParser.parse(TestDesigns.path("two-lock"));
    assertThat(Replayer.replay(printed, d)).isEqualTo(new ReplayResult.Confirmed(9, printed.outcome()));
    CliTest.Run replay = run("replay", file.toString());
    assertThat(replay.status()).as(replay.describe()).isZero();
  }

  @Test
  void noShrinkShowsTheScheduleAsFound() throws Exception {
    CliTest.Run r = run("check", design("two-lock"), "--random", "100", "--seed", "7", "--no-shrink");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).doesNotContain("shrunk").containsPattern("violating schedule \\([0-9]+ transitions, seed 7\\)");
    Trace t = TraceFormat.parse("<out>", printedTrace(r.out()));
    assertThat(t.params().threads()).containsExactly(Map.entry("gpu_worker", 3));

    Map<String, Object> m = json("check", design("two-lock"), "--random", "100", "--seed", "7", "--no-shrink", "--json");
    assertThat(m.get("threads")).isEqualTo(Map.of("gpu_worker", 3L));
    assertThat(m.get("length")).isEqualTo(m.get("original_length")).isEqualTo((long) t.length());
    assertThat(m.get("shrink_attempts")).isEqualTo(0L);
  }

  @Test
  void withoutAViolationTheOriginalFieldsAreEmpty() {
    CliTest.Run r = run("check", design("single-lock"), "--random", "20", "--seed", "7", "--json");
    assertThat(r.status()).as(r.describe()).isZero();
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) parseJson(r.out());
    assertThat(m).containsEntry("length", 0L).containsEntry("original_length", 0L).containsEntry("shrink_attempts", 0L)
        .containsEntry("original_threads", m.get("threads"));
  }

  @Test
  void oneAndTwoThreadsReportTheSameViolatingScheduleAndTheSameShrunkTrace() throws Exception {
    String rare = tmp.resolve("rare.design").toString();
    Files.writeString(Path.of(rare), """
        design rare
        vram 16GiB
        role w x3 jobs 1
          cpu a
          cpu b
          cpu c
          alloc buf 6GiB
          free buf
          cpu d
        """);
    int later = 0;
    for (int seed = 1000; seed <= 10_000; seed += 1000) {
      Map<String, Object> one = json("check", rare, "--random", "2000", "--seed", "" + seed, "--random-threads", "1", "--json");
      Map<String, Object> two = json("check", rare, "--random", "2000", "--seed", "" + seed, "--random-threads", "2", "--json");
      assertThat(one.get("random_threads")).isEqualTo(1L);
      assertThat(two.get("random_threads")).isEqualTo(2L);
      later += (Long) one.get("schedules") > 4 ? 1 : 0;
      for (String key : List.of("verdict", "schedules", "threads", "length", "original_length", "original_threads", "trace")) {
        assertThat(two.get(key)).as("seed %d: %s", seed, key).isEqualTo(one.get(key));
      }
      assertThat((Long) two.get("schedules_run")).isGreaterThanOrEqualTo((Long) two.get("schedules"));
      assertThat((Long) one.get("schedules_run")).isEqualTo(one.get("schedules"));
      assertThat((Long) two.get("schedules_per_second")).isPositive();
    }
    assertThat(later).as("seeds whose first violation is past schedule 4, where the threads' order could matter").isGreaterThan(3);
  }
}
