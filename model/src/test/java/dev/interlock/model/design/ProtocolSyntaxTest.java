package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The language of real engine protocols: pool threshold, device buffers, tasks, if free, spawn, join, events, keep. */
class ProtocolSyntaxTest {
  static final String CUZK = String.join("\n",
      "design cuzk",                          // 1
      "vram 16GiB",                           // 2
      "pool threshold max",                   // 3
      "buffer d_a 4GiB                # one per GPU, for good",
      "mutex compute_mtx",                    // 5
      "role gpu_worker x3 jobs 2",            // 6
      "  alloc d_bc 8GiB keep",               // 7
      "  if free >= 6GiB",                    // 8
      "  alloc staged 6GiB async",            // 9
      "  else",                               // 10
      "  lock compute_mtx",                   // 11
      "    if free < 1GiB               # indentation inside a body is not significant",
      "    trim",                             // 13
      "    end",                            // 14
      "  alloc staged 6GiB async",            // 15
      "  unlock compute_mtx",                 // 16
      "  end",                                // 17
      "  spawn prep_msm",                     // 18
      "  kernel ntt uses d_a d_bc staged",    // 19
      "  wait msm_done",                      // 20
      "  sync stream",                        // 21
      "  join prep_msm",                      // 22
      "  free staged",                        // 23
      "  sync",                               // 24
      "task prep_msm",                        // 25
      "  cpu b_g2_msm for 0.5s",              // 26
      "  signal msm_done",                    // 27
      "  spawn finalize",                     // 28
      "task finalize",                        // 29
      "  join prep_msm",                      // 30
      "  kernel fin uses d_a",                // 31
      "");

  /** Lines 1-3; a role or task starts at line 4 and its first step is line 5. */
  static final String HEAD = "design d\nvram 16GiB\nmutex m\n";

  static Design parse(String text) throws DesignException {
    return DesignParser.parse("t.design", text);
  }

  static String error(String text) {
    return assertThrows(DesignException.class, () -> parse(text)).getMessage();
  }

  @Test
  void parsesEveryNewConstruct() throws DesignException {
    Design d = parse(CUZK);
    assertThat(d.poolThreshold()).isEqualTo(Design.THRESHOLD_MAX);
    assertThat(d.buffers()).containsExactly(new ResidentBuffer("d_a", 4 * Sizes.GIB));
    assertThat(d.roles()).hasSize(1);
    assertThat(d.roles().get(0).body()).containsExactly(
        new Alloc("d_bc", 8 * Sizes.GIB, false, true),
        new IfFree(true, 6 * Sizes.GIB,
            List.of(new Alloc("staged", 6 * Sizes.GIB, true)),
            List.of(
                new Lock("compute_mtx"),
                new IfFree(false, Sizes.GIB, List.of(new Trim()), List.of()),
                new Alloc("staged", 6 * Sizes.GIB, true),
                new Unlock("compute_mtx"))),
        new Spawn("prep_msm"),
        new Kernel("ntt", List.of("d_a", "d_bc", "staged")),
        new Wait("msm_done"),
        new SyncStream(),
        new Join("prep_msm"),
        new Free("staged"),
        new Sync());
    assertThat(d.tasks()).containsExactly(
        new Task("prep_msm", List.of(
            new Cpu("b_g2_msm", Optional.of(Duration.ofMillis(500))),
            new Signal("msm_done"),
            new Spawn("finalize"))),
        new Task("finalize", List.of(new Join("prep_msm"), new Kernel("fin", List.of("d_a")))));
  }

  @Test
  void poolThresholdDefaultsToZeroAndTakesSizesZeroAndMax() throws DesignException {
    assertThat(parse(HEAD + "role r\n  sync\n").poolThreshold()).isZero();
    assertThat(parse(HEAD + "pool threshold 4GiB\nrole r\n  sync\n").poolThreshold()).isEqualTo(4 * Sizes.GIB);
    assertThat(parse(HEAD + "pool threshold 0B\nrole r\n  sync\n").poolThreshold()).isZero();
    assertThat(parse(HEAD + "pool threshold 0.0GiB\nrole r\n  sync\n").poolThreshold()).isZero();
    assertThat(parse(HEAD + "role r\n  sync\npool threshold max\n").poolThreshold()).isEqualTo(Design.THRESHOLD_MAX);
  }

  @Test
  void ifBlocksNestInBothBranchesAndMayHaveEmptyBranches() throws DesignException {
    Design d = parse(HEAD + "role r\n  if free >= 1GiB\n  if free < 2GiB\n  else\n  if free < 3GiB\n  sync\n  end\n"
        + "  end\n  else\n  end\n  if free < 4GiB\n  else\n  trim\n  end\n");
    assertThat(d.roles().get(0).body()).containsExactly(
        new IfFree(true, Sizes.GIB, List.of(new IfFree(false, 2 * Sizes.GIB, List.of(),
            List.of(new IfFree(false, 3 * Sizes.GIB, List.of(new Sync()), List.of())))), List.of()),
        new IfFree(false, 4 * Sizes.GIB, List.of(), List.of(new Trim())));
  }

  @Test
  void eventsAndTasksAcceptedWhereAJobCanSignal() throws DesignException {
    // The signal is in a task the role spawns, through another task.
    parse(HEAD + "role r\n  spawn a\n  wait go\ntask a\n  spawn b\ntask b\n  signal go\n");
    // A wait in a task, signalled by the role that spawns it.
    parse(HEAD + "role r\n  spawn t\n  signal go\ntask t\n  wait go\n");
    // A wait in a task, signalled by a sibling task of the same job.
    parse(HEAD + "role r\n  spawn t\n  spawn u\ntask t\n  wait go\ntask u\n  signal go\n");
    // A wait in a task, signalled by the task that spawns it.
    parse(HEAD + "role r\n  spawn t\ntask t\n  spawn u\n  signal go\ntask u\n  wait go\n");
    // A task spawned from two places, and joined by another task, is no cycle.
    parse(HEAD + "role r\n  spawn a\n  spawn b\ntask a\n  spawn b\n  join b\ntask b\n  sync\n");
    // Join of a task never spawned parses (it does nothing at run time).
    parse(HEAD + "role r\n  join t\ntask t\n  sync\n");
  }

  @Test
  void keptNamesMayDifferAcrossRolesAndKeepOneSizeWithinOne() throws DesignException {
    parse(HEAD + "role r\n  alloc b 1GiB keep\n  spawn t\ntask t\n  alloc b 1GiB async keep\n"
        + "role q\n  alloc b 2GiB\n  free b\n  alloc b 3GiB\n  free b\n");
  }

  @Test
  void kernelsMayUseNamesNoStepAllocates() throws DesignException {
    // As before this issue: a kernel on a buffer that is not live is the checker's USE_AFTER_FREE, not a parse error.
    Design d = parse(HEAD + "buffer d_a 1GiB\nrole r\n  kernel k uses d_a never_allocated\n  spawn t\ntask t\n"
        + "  kernel k2 uses nor_this\n");
    assertThat(d.roles().get(0).body().get(0)).isEqualTo(new Kernel("k", List.of("d_a", "never_allocated")));
  }

  @Test
  void keywordsOfTheNewStepsMayBeNames() throws DesignException {
    Design d = parse("design d\nvram 1GiB\nbuffer keep 1MiB\nmutex end\nrole task\n  alloc keep2 1GiB async keep\n"
        + "  free keep2\n  lock end\n  spawn if\n  wait else\n  unlock end\n  kernel stream uses keep\ntask if\n"
        + "  signal else\n  cpu end\n");
    assertThat(d.roles().get(0).body()).contains(new Spawn("if"), new Wait("else"), new Kernel("stream", List.of("keep")));
    assertThat(d.tasks().get(0).body()).containsExactly(new Signal("else"), new Cpu("end"));
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        // if blocks
        Arguments.of(HEAD + "role r\n  sync\n  else\n", "t.design:6:3: 'else' without 'if'"),
        Arguments.of(HEAD + "role r\n  if free >= 1GiB\n  sync\n  else\n  sync\n  else\n  sync\n  end\n",
            "t.design:9:3: second 'else' for the 'if' at line 5 (first 'else' at line 7)"),
        Arguments.of(HEAD + "role r\n  sync\n  end\n", "t.design:6:3: 'end' without 'if', 'choose' or 'on oom'"),
        Arguments.of(HEAD + "role r\n  if free < 1GiB\n  sync\n  end\n  end\n", "t.design:8:3: 'end' without 'if', 'choose' or 'on oom'"),
        Arguments.of(HEAD + "role r\n  if free >= 1GiB\n  sync\n", "t.design:5:3: 'if' without 'end'"),
        Arguments.of(HEAD + "role r\n  if free >= 1GiB\n", "t.design:5:3: 'if' without 'end'"),
        Arguments.of(HEAD + "role r\n  if free >= 1GiB\n  else\n  sync\nrole q\n  sync\n", "t.design:5:3: 'if' without 'end'"),
        Arguments.of(HEAD + "role r\n  if free >= 1GiB\n  if free < 2GiB\n  sync\n  end\n", "t.design:5:3: 'if' without 'end'"),
        Arguments.of(HEAD + "role r\n  if free >= 1GiB\n  sync\n  if free < 2GiB\n  sync\n", "t.design:7:3: 'if' without 'end'"),
        Arguments.of(HEAD + "role r\n  if free >= 1GiB\n  sync\nrole q\n  else\n", "t.design:5:3: 'if' without 'end'"),
        Arguments.of(HEAD + "task t\n  if free >= 1GiB\n  sync\n", "t.design:5:3: 'if' without 'end'"),
        Arguments.of(HEAD + "role r\n  if free >= 1XB\n  end\n", "t.design:5:14: bad size unit 'XB' in '1XB': use B, KiB, MiB or GiB"),
        Arguments.of(HEAD + "role r\n  if free >= 0B\n  end\n", "t.design:5:14: size '0B' must be positive"),
        Arguments.of(HEAD + "role r\n  if free > 1GiB\n  end\n", "t.design:5:11: bad operator '>' in if free (expected >= or <)"),
        Arguments.of(HEAD + "role r\n  if free <= 1GiB\n  end\n", "t.design:5:11: bad operator '<=' in if free (expected >= or <)"),
        Arguments.of(HEAD + "role r\n  if free >=1GiB\n  end\n",
            "t.design:5:11: bad operator '>=1GiB' in if free (expected >= or <, then a space and a size)"),
        Arguments.of(HEAD + "role r\n  if used >= 1GiB\n  end\n",
            "t.design:5:6: unexpected 'used' after 'if' (expected free, e.g. if free >= 4GiB)"),
        Arguments.of(HEAD + "role r\n  if free>=1GiB\n  end\n",
            "t.design:5:6: unexpected 'free>=1GiB' after 'if' (separate free, the operator and the size with spaces,"
                + " e.g. if free >= 4GiB)"),
        Arguments.of(HEAD + "role r\n  if\n  end\n", "t.design:5:3: if needs a condition on free memory, e.g. if free >= 4GiB"),
        Arguments.of(HEAD + "role r\n  if free\n  end\n", "t.design:5:6: if free needs >= or < and a size, e.g. if free >= 4GiB"),
        Arguments.of(HEAD + "role r\n  if free <\n  end\n", "t.design:5:11: if free < needs a size, e.g. if free < 4GiB"),
        Arguments.of(HEAD + "role r\n  if free < 1GiB now\n  end\n", "t.design:5:18: unexpected 'now' after 'if free < 1GiB'"),
        Arguments.of(HEAD + "role r\n  if free < 1GiB\n  else now\n  end\n", "t.design:6:8: unexpected 'now' after 'else'"),
        Arguments.of(HEAD + "role r\n  if free < 1GiB\n  end # done\n  end now\n", "t.design:7:3: 'end' without 'if', 'choose' or 'on oom'"),
        Arguments.of(HEAD + "if free < 1GiB\n", "t.design:4:1: step 'if' must be indented under a role"),
        // spawn, join and tasks
        Arguments.of(HEAD + "role r\n  spawn prep_ms\ntask prep_msm\n  sync\n",
            "t.design:5:9: undeclared task 'prep_ms'; did you mean 'prep_msm'?"),
        Arguments.of(HEAD + "role r\n  join nope\n", "t.design:5:8: undeclared task 'nope'"),
        Arguments.of(HEAD + "role r\n  spawn m\n", "t.design:5:9: 'm' is a mutex, not a task"),
        Arguments.of(HEAD + "role r\n  join r\n", "t.design:5:8: 'r' is a role, not a task"),
        Arguments.of(HEAD + "role r\n  lock t\ntask t\n  sync\n", "t.design:5:8: 't' is a task, not a mutex"),
        Arguments.of(HEAD + "role r\n  spawn\n", "t.design:5:3: spawn needs a task name, e.g. spawn prep_msm"),
        Arguments.of(HEAD + "role r\n  join 9t\n",
            "t.design:5:8: invalid task name '9t' (a name starts with a letter or _ and continues with letters,"
                + " digits, _, . or -)"),
        Arguments.of(HEAD + "role r\n  spawn t\ntask t\n  spawn t\n", "t.design:7:9: task t can spawn itself: t -> t"),
        Arguments.of(HEAD + "role r\n  spawn a\ntask a\n  sync\n  spawn b\ntask b\n  spawn a\n",
            "t.design:8:9: task b can spawn itself: b -> a -> b"),
        Arguments.of(HEAD + "role r\n  sync\ntask a\n  spawn b\ntask b\n  spawn c\ntask c\n  if free < 1GiB\n  spawn a\n  end\n",
            "t.design:7:9: task b can spawn itself: b -> c -> a -> b"),
        Arguments.of(HEAD + "task t x3\n",
            "t.design:4:8: unexpected 'x3' after 'task t' (a task runs once per spawn: it has no thread or job count)"),
        Arguments.of(HEAD + "task t now\n", "t.design:4:8: unexpected 'now' after 'task t'"),
        Arguments.of(HEAD + "task\n", "t.design:4:1: task needs a name, e.g. task prep_msm"),
        Arguments.of(HEAD + "role r\n  sync\ntask t\ntask u\n  sync\n", "t.design:6:6: task t has no steps"),
        Arguments.of(HEAD + "role r\n  sync\ntask t # nothing\n", "t.design:6:6: task t has no steps"),
        Arguments.of(HEAD + "role r\n  sync\ntask t\n  sync\ntask t\n  sync\n",
            "t.design:8:6: duplicate name 't' (first declared at line 6)"),
        Arguments.of(HEAD + "role r\n  sync\ntask r\n  sync\n", "t.design:6:6: duplicate name 'r' (first declared at line 4)"),
        Arguments.of(HEAD + "task m\n  sync\n", "t.design:4:6: duplicate name 'm' (first declared at line 3)"),
        Arguments.of(HEAD + "task t\n  sync\nsemaphore t 1\n", "t.design:6:11: duplicate name 't' (first declared at line 4)"),
        Arguments.of(HEAD + "task t\n  sync\nrole t\n  sync\n", "t.design:6:6: duplicate name 't' (first declared at line 4)"),
        Arguments.of(HEAD + "role r\n  sync\n  task t\n", "t.design:6:3: 'task' must start at column 1, not be indented"),
        Arguments.of(HEAD + "spawn t\n", "t.design:4:1: step 'spawn' must be indented under a role"),
        // events
        Arguments.of(HEAD + "role r\n  wait ready\n  signal redy\n",
            "t.design:5:8: event 'ready' is never signalled in role r or the tasks it can spawn; did you mean 'redy'?"),
        Arguments.of(HEAD + "role r\n  wait go\nrole q\n  signal go\n",
            "t.design:5:8: event 'go' is never signalled in role r or the tasks it can spawn"),
        Arguments.of(HEAD + "role r\n  spawn t\ntask t\n  wait go\nrole q\n  signal go\n",
            "t.design:7:8: event 'go' is never signalled in a job that runs task t (a role or task that can spawn it,"
                + " and the tasks they spawn)"),
        Arguments.of(HEAD + "role r\n  sync\ntask t\n  wait go\n",
            "t.design:7:8: event 'go' is never signalled in a job that runs task t (a role or task that can spawn it,"
                + " and the tasks they spawn)"),
        Arguments.of(HEAD + "role r\n  wait\n", "t.design:5:3: wait needs an event name, e.g. wait ready"),
        Arguments.of(HEAD + "role r\n  signal e f\n", "t.design:5:12: unexpected 'f' after 'signal e'"),
        // kept buffers
        Arguments.of(HEAD + "role r\n  alloc b 1GiB keep\n  free b\n  alloc b 1GiB\n  free b\n",
            "t.design:7:9: buffer 'b' is allocated without keep but kept at line 5 (in role r); a buffer name is"
                + " either always kept or never"),
        Arguments.of(HEAD + "role r\n  alloc b 1GiB\n  free b\n  spawn t\ntask t\n  alloc b 1GiB keep\n",
            "t.design:9:9: kept buffer 'b' is also allocated without keep at line 5 (in role r and the tasks it can"
                + " spawn); a buffer name is either always kept or never"),
        Arguments.of(HEAD + "task t\n  alloc b 1GiB keep\nrole r\n  spawn t\n  alloc b 1GiB\n",
            "t.design:8:9: buffer 'b' is allocated without keep but kept at line 5 (in role r and the tasks it can"
                + " spawn); a buffer name is either always kept or never"),
        Arguments.of(HEAD + "role r\n  alloc b 1GiB keep\n  alloc b 2GiB async keep\n",
            "t.design:6:11: kept buffer 'b' is 2GiB but 1GiB at line 5 (in role r); a kept buffer has one size"),
        Arguments.of(HEAD + "role r\n  alloc b 1GiB keep async\n",
            "t.design:5:21: unexpected 'async' after 'alloc b 1GiB keep' (async comes before keep)"),
        Arguments.of(HEAD + "role r\n  alloc b 1GiB keep keep\n", "t.design:5:21: unexpected 'keep' after 'alloc b 1GiB keep'"),
        // device buffers
        Arguments.of(HEAD + "buffer d_a 4GiB\nrole r\n  alloc d_a 4GiB\n",
            "t.design:6:9: 'd_a' is a device buffer (line 4), allocated once for the whole run: role r may not allocate it"),
        Arguments.of(HEAD + "role r\n  spawn t\ntask t\n  free d_a\nbuffer d_a 4GiB\n",
            "t.design:7:8: 'd_a' is a device buffer (line 8), allocated once for the whole run: task t may not free it"),
        Arguments.of(HEAD + "buffer a 8GiB\nbuffer b 6GiB\nbuffer c 4GiB\nbuffer e 4GiB\nrole r\n  sync\n",
            "t.design:6:10: device buffers need 18GiB, more than vram 16GiB"),
        Arguments.of(HEAD + "buffer a 4GiB\nbuffer a 4GiB\n", "t.design:5:8: duplicate buffer 'a' (first declared at line 4)"),
        Arguments.of(HEAD + "buffer\n", "t.design:4:1: buffer needs a name and a size, e.g. buffer d_a 4GiB"),
        Arguments.of(HEAD + "buffer a\n", "t.design:4:1: buffer needs a size, e.g. buffer a 4GiB"),
        Arguments.of(HEAD + "buffer a 0B\n", "t.design:4:10: size '0B' must be positive"),
        Arguments.of(HEAD + "buffer a 1GiB async\n", "t.design:4:15: unexpected 'async' after 'buffer a 1GiB'"),
        // pool threshold
        Arguments.of(HEAD + "pool threshold 1GiB\npool threshold max\n",
            "t.design:5:1: duplicate pool threshold line (first at line 4)"),
        Arguments.of(HEAD + "pool\n",
            "t.design:4:1: pool needs its release threshold, e.g. pool threshold 4GiB or pool threshold max"),
        Arguments.of(HEAD + "pool size 1GiB\n", "t.design:4:6: unexpected 'size' after 'pool' (expected threshold)"),
        Arguments.of(HEAD + "pool threshold\n", "t.design:4:6: pool threshold needs a size or max, e.g. pool threshold 4GiB"),
        Arguments.of(HEAD + "pool threshold lots\n", "t.design:4:16: bad size 'lots': expected a number and a unit, e.g. 12GiB"),
        Arguments.of(HEAD + "pool threshold 0\n", "t.design:4:16: size '0' needs a unit: B, KiB, MiB or GiB"),
        Arguments.of(HEAD + "pool threshold max now\n", "t.design:4:20: unexpected 'now' after 'pool threshold max'"),
        // sync stream
        Arguments.of(HEAD + "role r\n  sync stream now\n", "t.design:5:15: unexpected 'now' after 'sync stream'"),
        Arguments.of(HEAD + "role r\n  sync streams\n", "t.design:5:8: unexpected 'streams' after 'sync'"),
        // checks that need the whole file report the first in file order
        Arguments.of(HEAD + "role r\n  wait go\n  lock nope\n  spawn t\ntask t\n  spawn t\n",
            "t.design:5:8: event 'go' is never signalled in role r or the tasks it can spawn"),
        Arguments.of(HEAD + "role r\n  lock nope\n  wait go\n",
            "t.design:5:8: undeclared mutex 'nope'"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void reportsErrorsWithPositions(String text, String expected) {
    assertThat(error(text)).isEqualTo(expected);
  }

  /** Whole-line edits of the cuzk example (the design-level rules fail here) never escape as anything but a positioned error. */
  @Test
  void lineMutationsOfTheExampleNeverThrowAnythingElse() {
    String property = System.getProperty("interlock.seed", "");
    long seed = property.isBlank() ? 12L : Long.parseLong(property.strip());
    System.out.println("[interlock] ProtocolSyntaxTest.lineMutationsOfTheExampleNeverThrowAnythingElse seed=" + seed
        + " (rerun with -Dinterlock.seed=" + seed + ")");
    Random rnd = new Random(seed);
    List<String> extra = List.of("  spawn prep_msm", "  spawn finalize", "  join finalize", "  wait other", "  signal other",
        "  alloc d_bc 4GiB keep", "  alloc d_bc 8GiB", "  alloc d_a 1GiB", "  free d_a", "  if free < 2GiB", "  else",
        "  end", "task extra", "buffer big 12GiB", "pool threshold 0B", "task prep_msm", "  sync stream");
    List<String> base = CUZK.lines().toList();
    int parsed = 0;
    for (int i = 0; i < 20_000; i++) {
      List<String> lines = new ArrayList<>(base);
      for (int e = 1 + rnd.nextInt(3); e > 0; e--) {
        int at = rnd.nextInt(lines.size());
        switch (rnd.nextInt(3)) {
          case 0 -> lines.remove(at);
          case 1 -> lines.add(at, extra.get(rnd.nextInt(extra.size())));
          default -> lines.add(at, lines.get(rnd.nextInt(lines.size())));
        }
      }
      String text = String.join("\n", lines);
      try {
        Design d = DesignParser.parse("fuzz", text);
        assertThat(DesignParser.parse("again", DesignPrinter.print(d))).as("seed %d, case %d", seed, i).isEqualTo(d);
        parsed++;
      } catch (DesignException e) {
        assertThat(e.detail()).as("seed %d, case %d:%n%s", seed, i, text).doesNotStartWith("internal error");
        assertThat(e.line()).isPositive();
        assertThat(e.column()).isPositive();
      }
    }
    assertThat(parsed).as("some mutants are still designs").isPositive();
  }
}
