package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Wait;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link TaskGraph} and the rules {@link Design} checks over it: no spawn cycles, one kept size, waits with a signal. */
class TaskGraphTest {
  private static final List<Step> SYNC = List.of(new Sync());

  private static Design design(List<Step> role, Task... tasks) {
    return new Design("d", 16 * Sizes.GIB, 0, List.of(), List.of(), List.of(), List.of(new Role("r", 1, 1, role)),
        List.of(tasks));
  }

  @Test
  void reachFollowsSpawnsThroughTasksAndIfBlocksButNotJoins() {
    TaskGraph g = new TaskGraph(Map.of(
        "a", List.of(new IfFree(true, 1, List.of(), List.of(new Spawn("b")))),
        "b", List.of(new Spawn("c"), new Spawn("undeclared")),
        "c", SYNC,
        "d", List.of(new Join("a"))));
    assertThat(g.reach(List.of(new Spawn("a")))).containsExactly("a", "b", "c");
    assertThat(g.reach("d")).isEmpty();
    assertThat(g.path("a", "c")).containsExactly("a", "b", "c");
    assertThat(g.path("c", "a")).isEmpty();
    assertThat(g.path("c", "c")).containsExactly("c");
    assertThat(g.cycle("a")).isEmpty();
  }

  @Test
  void cyclesAreFoundDirectAndThroughOtherTasks() {
    TaskGraph g = new TaskGraph(Map.of("a", List.of(new Spawn("b")), "b", List.of(new Spawn("a")),
        "s", List.of(new Spawn("s"))));
    assertThat(g.cycle("a")).containsExactly("a", "b", "a");
    assertThat(g.cycle("s")).containsExactly("s", "s");
  }

  @Test
  void keepConflictsCompareWithTheFirstAllocOfAName() {
    Alloc kept = new Alloc("b", Sizes.GIB, false, true);
    Alloc keptAsync = new Alloc("b", Sizes.GIB, true, true);
    Alloc plain = new Alloc("b", Sizes.GIB, false);
    Alloc bigger = new Alloc("b", 2 * Sizes.GIB, false, true);
    assertThat(TaskGraph.keepConflict(List.of(kept, keptAsync, new Free("b")))).isEmpty();
    assertThat(TaskGraph.keepConflict(List.of(plain, new Alloc("b", 5, true)))).as("unkept sizes may differ").isEmpty();
    assertThat(TaskGraph.keepConflict(List.of(kept, keptAsync, plain)))
        .isEqualTo(Optional.of(new TaskGraph.KeepConflict(kept, plain)));
    assertThat(TaskGraph.keepConflict(List.of(kept, bigger))).isEqualTo(Optional.of(new TaskGraph.KeepConflict(kept, bigger)));
  }

  @Test
  void jobSignalsComeFromEveryRoleAndTaskThatCanRunTheTask() {
    TaskGraph g = new TaskGraph(Map.of(
        "t", List.of(new Wait("e")),
        "u", List.of(new Signal("from_u")),
        "parent", List.of(new Spawn("t"), new Signal("from_parent")),
        "other", List.of(new Signal("unrelated"))));
    List<List<Step>> roles = List.of(List.of(new Spawn("parent"), new Spawn("u"), new Signal("from_role")),
        List.of(new Signal("other_role")));
    assertThat(g.jobSignals("t", roles)).containsExactly("from_parent", "from_role", "from_u");
    assertThat(g.signals(roles.get(0))).containsExactly("from_parent", "from_role", "from_u");
  }

  @Test
  void designRejectsWhatTheParserReportsWithPositions() {
    assertThatThrownBy(() -> design(List.of(new Spawn("a")), new Task("a", List.of(new Spawn("b"))),
        new Task("b", List.of(new Spawn("a")))))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("task a can spawn itself: a -> b -> a");
    assertThatThrownBy(() -> design(List.of(new Alloc("b", Sizes.GIB, false), new Spawn("t")),
        new Task("t", List.of(new Alloc("b", Sizes.GIB, false, true)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("role r and the tasks it can spawn: 'alloc b 1GiB' and 'alloc b 1GiB keep' disagree");
    assertThatThrownBy(() -> design(List.of(new Alloc("b", Sizes.GIB, false, true), new Alloc("b", 2 * Sizes.GIB, false, true))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("disagree");
    assertThatThrownBy(() -> design(List.of(new Wait("e"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("role r: no thread of its job signals e in 'wait e'");
    assertThatThrownBy(() -> design(SYNC, new Task("t", List.of(new Wait("e")))))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("task t: no thread of its job signals e in 'wait e'");
  }

  @Test
  void designAcceptsAJobThatSignalsWhatItWaitsFor() {
    Design d = design(List.of(new Alloc("k", Sizes.GIB, false, true), new Spawn("t"), new Wait("ready"), new Join("t")),
        new Task("t", List.of(new Alloc("k", Sizes.GIB, true, true), new Signal("ready"))));
    assertThat(d.tasks()).hasSize(1);
  }
}
