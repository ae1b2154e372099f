package dev.interlock.properties.shrink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.check.Schedules;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Role;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceStep;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Shrinking violating random schedules: the acceptance figures of the shipped designs, and the stages' pieces. */
class ScheduleShrinkerTest {

  private static Design shipped(String name) {
    try {
      return DesignParser.parse(Path.of(path(name)));
    } catch (DesignException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  private static Design parse(String text) {
    try {
      return DesignParser.parse("<test>", text);
    } catch (DesignException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  private static String path(String name) {
    return "designs/" + name + ".design";
  }

  /** The violating schedule {@code check --random n --seed seed} finds. */
  private static Trace found(Design d, String source, long seed, int n) {
    return Schedules.random(new Model(d), source, seed, n).violating()
        .orElseThrow(() -> new AssertionError("no violation in " + n + " schedules from seed " + seed));
  }

  /** Shrinks and checks what holds for every shrink: same kind, replays, no more threads, jobs or transitions. */
  private static ShrunkSchedule shrink(Design d, Trace found) {
    ShrunkSchedule s = new ScheduleShrinker().shrink(d, found);
    Trace t = s.shrunk();
    assertThat(s.original()).isSameAs(found);
    assertThat(Replayer.replay(t, d)).as("replay of%n%s", t)
        .isEqualTo(new ReplayResult.Confirmed(t.length(), t.outcome()));
    assertThat(s.kind()).isEqualTo(ShrunkSchedule.kind(found));
    assertThat(t.length()).isLessThanOrEqualTo(found.length());
    found.params().threads().forEach((role, n) -> assertThat(t.params().threads().get(role)).as(role).isLessThanOrEqualTo(n));
    found.params().jobs().forEach((role, n) -> assertThat(t.params().jobs().get(role)).as(role).isLessThanOrEqualTo(n));
    assertThat(t.seed()).isEqualTo(found.seed());
    assertThat(t.source()).isEqualTo(found.source());
    return s;
  }

  @Test
  void twoLockAtThreeWorkersShrinksToTwoWorkersAndAtMostNineTransitionsForSeeds1To50() {
    Design d = shipped("two-lock").withThreads("gpu_worker", 3);
    int longer = 0;
    for (long seed = 1; seed <= 50; seed++) {
      Trace found = found(d, path("two-lock"), seed, 100);
      ShrunkSchedule s = shrink(d, found);
      assertThat(s.kind()).as("seed %d", seed).isEqualTo(ViolationKind.OOM);
      assertThat(s.shrunk().params().threads()).as("seed %d", seed).containsExactly(Map.entry("gpu_worker", 2));
      assertThat(s.shrunk().length()).as("seed %d", seed).isLessThanOrEqualTo(9);
      longer += found.length() > 9 ? 1 : 0;
    }
    assertThat(longer).as("schedules found longer than 9 transitions").isPositive();
  }

  @Test
  void manySmallShrinksToElevenThreadsAndAtMost49TransitionsForSeeds1To20() {
    Design d = shipped("many-small");
    for (long seed = 1; seed <= 20; seed++) {
      Trace found = found(d, path("many-small"), seed, 100);
      assertThat(found.params().threads()).containsExactly(Map.entry("w", 12));
      ShrunkSchedule s = shrink(d, found);
      assertThat(s.kind()).as("seed %d", seed).isEqualTo(ViolationKind.OOM);
      assertThat(s.shrunk().params().threads()).as("seed %d", seed).containsExactly(Map.entry("w", 11));
      assertThat(s.shrunk().length()).as("seed %d", seed).isBetween(33, 49);
    }
  }

  @Test
  void aDeadlockShrinksToOneThreadPerRoleAndTheTwoLocks() {
    Design d = parse(String.join("\n",
        "design crossed", "vram 1GiB", "mutex m0", "mutex m1",
        "role a x3 jobs 2", "  lock m0", "  lock m1", "  unlock m1", "  unlock m0",
        "role b x3 jobs 2", "  lock m1", "  lock m0", "  unlock m0", "  unlock m1", ""));
    int shrunk = 0;
    for (long seed = 1; seed <= 200 && shrunk < 5; seed++) {
      Trace t = Schedules.run(new Model(d), "<test>", Optional.of(seed), new SplittableRandom(seed)::nextInt);
      if (t.outcome() instanceof dev.interlock.model.trace.Outcome.Violated) {
        ShrunkSchedule s = shrink(d, t);
        assertThat(s.kind()).isEqualTo(ViolationKind.DEADLOCK);
        assertThat(s.shrunk().params().threads()).containsExactly(Map.entry("a", 1), Map.entry("b", 1));
        assertThat(s.shrunk().params().jobs()).containsExactly(Map.entry("a", 1), Map.entry("b", 1));
        assertThat(s.shrunk().steps()).extracting(x -> x.thread() + " " + x.step().text())
            .containsExactly("a#0 lock m0", "b#0 lock m1");
        shrunk++;
      }
    }
    assertThat(shrunk).as("deadlocking schedules in 200 seeds").isEqualTo(5);
  }

  @Test
  void aFailureInATaskOfALaterJobMovesToTheFirstJobWithItsTaskRenamed() {
    // r#0 runs job 1 and starts job 2, whose task holds b while r#1's job-1 task allocates: OOM.
    Design d = parse(String.join("\n",
        "design tasks", "vram 1GiB",
        "task t", "  alloc b 600MiB", "  cpu x", "  free b",
        "role r x2 jobs 2", "  spawn t", "  join t", ""));
    LenientReplay replay = new LenientReplay(new Model(d), ViolationKind.OOM);
    int[] picks = replay.indices(List.of("r#0", "r#0/t@1", "r#0/t@1", "r#0/t@1", "r#0/t@1", "r#0",
        "r#0", "r#0/t@2", "r#1", "r#1/t@1"));
    int[] executed = replay.executed(picks).orElseThrow();
    assertThat(executed).isEqualTo(picks);
    Trace found = replay.trace(executed, "<test>", Optional.of(7L));
    ShrunkSchedule s = shrink(d, found);
    assertThat(s.shrunk().params().threads()).containsExactly(Map.entry("r", 2));
    assertThat(s.shrunk().params().jobs()).containsExactly(Map.entry("r", 1));
    assertThat(s.shrunk().steps()).extracting(x -> x.thread() + " " + x.step().text())
        .containsExactly("r#0 spawn t", "r#0/t@1 alloc b 600MiB", "r#1 spawn t", "r#1/t@1 alloc b 600MiB");
  }

  @Test
  void droppingAThreadTakesItsTasksAndRenumbersTheRolesLaterThreads() {
    List<String> picks = List.of("r#0", "r#1", "r#1/t@1", "q#1", "r#2/t@2.2", "r#2", "r#1");
    assertThat(ScheduleShrinker.withoutThread(picks, "r", 1))
        .containsExactly("r#0", "q#1", "r#1/t@2.2", "r#1");
    assertThat(ScheduleShrinker.withoutThread(picks, "q", 0))
        .containsExactly("r#0", "r#1", "r#1/t@1", "q#0", "r#2/t@2.2", "r#2", "r#1");
  }

  @Test
  void droppingAJobTakesItFromTheWorkersThatReachedTheLastJobAndRenumbersTheirTasks() {
    Role r = new Role("r", 2, 2, List.of(new dev.interlock.model.step.Cpu("x")));
    List<String> picks = List.of("r#0", "r#1", "r#0/t@1", "r#0", "r#0/t@2", "r#1", "q#0");
    int[] jobs = {0, 0, 0, 1, 1, 0, 1};
    // r#0 reached job 2 (0-based 1), r#1 did not; q is another role.
    assertThat(ScheduleShrinker.withoutJob(picks, jobs, r, 0))
        .containsExactly("r#1", "r#0", "r#0/t@1", "r#1", "q#0");
    assertThat(ScheduleShrinker.withoutJob(picks, jobs, r, 1))
        .containsExactly("r#0", "r#1", "r#0/t@1", "r#1", "q#0");
  }

  @Test
  void aTraceThatDoesNotViolateIsRefused() {
    Design d = shipped("single-lock");
    Trace t = Schedules.run(new Model(d), path("single-lock"), Optional.empty(), n -> 0);
    assertThatThrownBy(() -> new ScheduleShrinker().shrink(d, t)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not end in a violation");
  }
}
