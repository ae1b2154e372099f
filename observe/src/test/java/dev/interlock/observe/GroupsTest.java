package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.model.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Mapping groups: several real allocations that make up one design allocation, for validate (docs/capture-format.md). */
class GroupsTest {
  private static final long SEED = 14;
  private static final String SINGLE = "designs/single-lock.design";
  private static final String TWO = "designs/two-lock.design";
  private static final String GROUP = "group staged = 4GiB 4GiB 4GiB\n";
  private static final Map<Long, List<Long>> STAGED_IN_3 = Map.of(12 * Sizes.GIB, List.of(4 * Sizes.GIB, 4 * Sizes.GIB, 4 * Sizes.GIB));

  private static Mapping map(String text) {
    try {
      return Mapping.parse("x.map", text);
    } catch (CaptureFormatException e) {
      throw new AssertionError(e);
    }
  }

  private static Validator.Validated validate(String file, List<CaptureEvent> recs, String mapping) {
    Design d = Runs.design(file);
    Validator.Validated v = Validator.validateRun(d, file, Runs.text(file), Runs.capture(recs), map(mapping));
    System.out.println("[interlock] " + file + " with '" + mapping.strip() + "': " + v.validation().summary());
    return v;
  }

  /** The single-lock run of {@link #SEED} with staged allocated as three 4 GiB parts, lines renumbered. */
  private static List<CaptureEvent> splitSingleLock() {
    Design d = Runs.design(SINGLE);
    return ValidatorTest.renumber(SplitAllocs.split(Runs.records(d, Runs.run(d, SEED), false), STAGED_IN_3, 1));
  }

  private static int indexOf(List<CaptureEvent> recs, int from, java.util.function.Predicate<CaptureEvent> p) {
    for (int i = from; i < recs.size(); i++) {
      if (p.test(recs.get(i))) {
        return i;
      }
    }
    throw new AssertionError("no such record after " + from);
  }

  private static boolean part(CaptureEvent e) {
    return e instanceof CaptureEvent.Alloc a && a.bytes() == 4 * Sizes.GIB;
  }

  @Test
  void aGroupConformsAndIsOneTransitionAtItsLastPart() {
    List<CaptureEvent> recs = splitSingleLock();
    Validator.Validated v = validate(SINGLE, recs, GROUP);
    assertThat(v.validation()).isInstanceOf(Validation.Conforms.class);
    // 3 workers x 2 jobs: one alloc staged and one free staged transition per job, each moving 12 GiB at once
    List<TraceStep> steps = v.trace().steps();
    long allocs = steps.stream().filter(s -> s.step() instanceof Alloc a && a.buffer().equals("staged")).count();
    long frees = steps.stream().filter(s -> s.step() instanceof Free f && f.buffer().equals("staged")).count();
    assertThat(allocs).isEqualTo(6);
    assertThat(frees).isEqualTo(6);
    for (int i = 1; i < steps.size(); i++) {
      if (steps.get(i).step() instanceof Alloc a && a.buffer().equals("staged")) {
        assertThat(steps.get(i).used() - steps.get(i - 1).used()).isEqualTo(12 * Sizes.GIB);
      }
    }
  }

  @Test
  void withoutTheGroupTheFirstPartDiverges() {
    List<CaptureEvent> recs = splitSingleLock();
    Validation v = validate(SINGLE, recs, "").validation();
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    assertThat(((Validation.Diverges) v).line()).isEqualTo(recs.get(indexOf(recs, 0, GroupsTest::part)).line());
    assertThat(v.summary()).contains("group BUFFER = SIZE");
  }

  @Test
  void aDesignEventBetweenPartsDivergesThereNamingTheGroup() {
    List<CaptureEvent> recs = new ArrayList<>(splitSingleLock());
    int first = indexOf(recs, 0, GroupsTest::part);
    long tid = recs.get(first).tid();
    // the owner's next event the design mentions after its parts: the scratch allocation, moved between parts 1 and 2
    int scratch = indexOf(recs, first, e -> e.tid() == tid && e instanceof CaptureEvent.Alloc a && a.bytes() == 2 * Sizes.GIB);
    recs.add(first + 1, recs.remove(scratch));
    recs = ValidatorTest.renumber(recs);
    Validation v = validate(SINGLE, recs, GROUP).validation();
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    assertThat(((Validation.Diverges) v).line()).isEqualTo(recs.get(first + 1).line());
    assertThat(v.summary()).contains("group staged is incomplete: 1 of 3 parts (from run.capture:" + recs.get(first).line() + ")")
        .contains("'group staged = 4GiB 4GiB 4GiB' (x.map:1)").contains("next part is a plain 4GiB allocation")
        .contains("the design takes 'alloc staged 12GiB' (designs/single-lock.design:");
  }

  @Test
  void eventsTheDesignDoesNotMentionMayComeBetweenParts() {
    List<CaptureEvent> recs = new ArrayList<>(splitSingleLock());
    int first = indexOf(recs, 0, GroupsTest::part);
    CaptureEvent p = recs.get(first);
    recs.add(first + 1, new CaptureEvent.Alloc(0, p.nanos(), p.tid(), 0x1234000, 4096, false, "-", 0, "cuMemAlloc_v2"));
    recs.add(first + 2, new CaptureEvent.RangePush(0, p.nanos(), p.tid(), "pad_bases", "-"));
    recs.add(first + 3, new CaptureEvent.RangePop(0, p.nanos(), p.tid(), "-"));
    assertThat(validate(SINGLE, ValidatorTest.renumber(recs), GROUP + "ignore alloc 4096\n").validation())
        .isInstanceOf(Validation.Conforms.class);
  }

  @Test
  void aPartOutOfOrderOrOfTheWrongSizeDiverges() {
    List<CaptureEvent> recs = splitSingleLock();
    Validation v = validate(SINGLE, recs, "group staged = 4GiB 6GiB 2GiB\n").validation();
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    int second = indexOf(recs, indexOf(recs, 0, GroupsTest::part) + 1, GroupsTest::part);
    assertThat(((Validation.Diverges) v).line()).isEqualTo(recs.get(second).line());
    assertThat(v.summary()).contains("next part is a plain 6GiB allocation");
  }

  @Test
  void theToleranceAppliesToTheSum() {
    // parts of 4 GiB + 1 MiB each: each within 2 MiB of its part, but 3 MiB over in sum
    Map<Long, List<Long>> padded = Map.of(12 * Sizes.GIB, List.of(4 * Sizes.GIB + Sizes.MIB, 4 * Sizes.GIB + Sizes.MIB, 4 * Sizes.GIB + Sizes.MIB));
    Design d = Runs.design(SINGLE);
    List<CaptureEvent> recs = ValidatorTest.renumber(SplitAllocs.split(Runs.records(d, Runs.run(d, SEED), false), padded, 1));
    Validation tight = validate(SINGLE, recs, GROUP + "tolerance 2MiB\n").validation();
    assertThat(tight).isInstanceOf(Validation.Diverges.class);
    assertThat(tight.summary()).contains("group staged's parts add up to 12291MiB, which is not 'alloc staged 12GiB'");
    assertThat(validate(SINGLE, recs, GROUP + "tolerance 3MiB\n").validation()).isInstanceOf(Validation.Conforms.class);
  }

  @Test
  void anOomInTheMiddleOfAGroupConformsWhenTheModelRunsOutThere() {
    Design d = Runs.design(TWO);
    for (long seed = SEED; seed < SEED + 20; seed++) {
      List<CaptureEvent> plain = Runs.records(d, Runs.run(d, seed), false);
      if (plain.get(plain.size() - 1) instanceof CaptureEvent.Alloc a && a.outOfMemory() && a.bytes() == 12 * Sizes.GIB) {
        List<CaptureEvent> recs = ValidatorTest.renumber(SplitAllocs.split(plain, STAGED_IN_3, 1));
        CaptureEvent last = recs.get(recs.size() - 1);
        assertThat(recs.get(recs.size() - 2)).matches(GroupsTest::part);
        Validation v = validate(TWO, recs, GROUP).validation();
        assertThat(v).isInstanceOf(Validation.Conforms.class);
        assertThat(((Validation.Conforms) v).oomLine()).isEqualTo(last.line());
        return;
      }
    }
    throw new AssertionError("no two-lock run ran out of memory at staged in 20 seeds from " + SEED);
  }

  @Test
  void anOomInTheMiddleOfAGroupDivergesWhereTheModelHasRoom() {
    List<CaptureEvent> recs = new ArrayList<>(splitSingleLock());
    int second = indexOf(recs, indexOf(recs, 0, GroupsTest::part) + 1, GroupsTest::part);
    CaptureEvent.Alloc a = (CaptureEvent.Alloc) recs.get(second);
    recs = new ArrayList<>(recs.subList(0, second));
    recs.add(new CaptureEvent.Alloc(0, a.nanos(), a.tid(), 0, a.bytes(), false, "-", CaptureEvent.Alloc.OUT_OF_MEMORY, a.api()));
    recs = ValidatorTest.renumber(recs);
    Validation v = validate(SINGLE, recs, GROUP).validation();
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    assertThat(((Validation.Diverges) v).line()).isEqualTo(recs.get(recs.size() - 1).line());
    assertThat(v.summary()).contains("(part 2 of group staged) ran out of memory, but the design has room for 'alloc staged 12GiB'");
  }

  @Test
  void aDesignEventBetweenThePartsFreesDivergesNamingTheGroup() {
    List<CaptureEvent> recs = new ArrayList<>(splitSingleLock());
    int firstFree = indexOf(recs, 0, e -> e instanceof CaptureEvent.Free f && recs.stream()
        .anyMatch(x -> x instanceof CaptureEvent.Alloc a && a.ptr() == f.ptr() && a.bytes() == 4 * Sizes.GIB));
    long tid = recs.get(firstFree).tid();
    int unlock = indexOf(recs, firstFree, e -> e.tid() == tid && e instanceof CaptureEvent.Release);
    recs.add(firstFree + 1, recs.remove(unlock));
    List<CaptureEvent> renumbered = ValidatorTest.renumber(recs);
    Validation v = validate(SINGLE, renumbered, GROUP).validation();
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    assertThat(((Validation.Diverges) v).line()).isEqualTo(renumbered.get(firstFree + 1).line());
    assertThat(v.summary()).contains("group staged is partly freed: 1 of 3 parts")
        .contains("the design takes 'free staged' (designs/single-lock.design:");
  }

  @Test
  void aPartFreedBeforeTheKernelEndsDivergesAtThatFree() {
    List<CaptureEvent> recs = new ArrayList<>(splitSingleLock());
    int first = indexOf(recs, 0, GroupsTest::part);
    long tid = recs.get(first).tid();
    long ptr = ((CaptureEvent.Alloc) recs.get(first)).ptr();
    int free = indexOf(recs, first, e -> e instanceof CaptureEvent.Free f && f.ptr() == ptr);
    int scratch = indexOf(recs, first, e -> e.tid() == tid && e instanceof CaptureEvent.Alloc a && a.bytes() == 2 * Sizes.GIB);
    recs.add(scratch + 1, recs.remove(free));
    List<CaptureEvent> renumbered = ValidatorTest.renumber(recs);
    Validation v = validate(SINGLE, renumbered, GROUP).validation();
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    assertThat(((Validation.Diverges) v).line()).isEqualTo(renumbered.get(scratch + 1).line());
  }

  @Test
  void badGroupLinesArePositioned() {
    assertThatThrownBy(() -> Mapping.parse("x.map", "tolerance 1%\ngroup staged =\n")).hasMessage(
        "x.map:2:15: group staged is empty: list the sizes of the real allocations that make up the design's alloc staged");
    assertThatThrownBy(() -> Mapping.parse("x.map", "group staged = 4GiB 4XB\n"))
        .hasMessage("x.map:1:21: bad size '4XB' (bytes, or e.g. 12GiB)");
    assertThatThrownBy(() -> Mapping.parse("x.map", "group staged = 4GiB 0\n"))
        .hasMessageStartingWith("x.map:1:21: a part of group staged must be at least 1 byte");
    assertThatThrownBy(() -> Mapping.parse("x.map", "group 9staged = 4GiB\n"))
        .hasMessageStartingWith("x.map:1:1: expected 'group BUFFER = SIZE SIZE ...'");
    assertThatThrownBy(() -> Mapping.parse("x.map", "group staged 4GiB\n"))
        .hasMessageStartingWith("x.map:1:1: expected 'group BUFFER = SIZE SIZE ...'");
    assertThatThrownBy(() -> Mapping.parse("x.map", "group staged = 4GiB\n  group staged = 2GiB\n"))
        .hasMessage("x.map:2:3: buffer staged is grouped twice");
    assertThatThrownBy(() -> Mapping.parse("x.map", "group staged = 8GiB 4GiB\nignore alloc 4GiB\n"))
        .hasMessage("x.map:1:21: part 4GiB of group staged is also ignored ('ignore alloc' on line 2)");
  }

  @Test
  void groupsAreCheckedAgainstTheDesign() {
    Design d = Runs.design(SINGLE);
    assertThatThrownBy(() -> map("\ngroup bases = 4GiB 4GiB\n").checkAgainst(d))
        .hasMessage("x.map:2:1: group bases: design single-lock allocates no buffer 'bases'");
    assertThatThrownBy(() -> map("group staged = 4GiB 4GiB\n").checkAgainst(d))
        .hasMessage("x.map:1:1: group staged: its parts add up to 8GiB, but design single-lock has 'alloc staged 12GiB'"
            + " (the default tolerance is exact)");
    List<CaptureEvent> recs = splitSingleLock();
    assertThatThrownBy(() -> validate(SINGLE, recs, "group staged = 4GiB 4GiB\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("x.map:1:1: group staged: its parts add up to 8GiB");
  }

  @Test
  void inferWritesOneAllocAndOneFreePerGroupAndGetsTheOriginalsVerdict() throws Exception {
    for (String f : List.of(TWO, SINGLE)) {
      Design d = Runs.design(f);
      Capture c = Runs.capture(ValidatorTest.renumber(SplitAllocs.split(Runs.records(d, Runs.run(d, SEED), true), STAGED_IN_3, 1)));
      String text = Inferrer.infer(c, map(GROUP), java.util.Optional.empty());
      System.out.println("[interlock] infer " + f + " with groups:\n" + text);
      assertThat(text).contains("  alloc staged 12GiB  # run.capture:").contains(", group staged (x.map:1): 3 allocations, the last at run.capture:")
          .contains("  free staged  # ").doesNotContain("4GiB");
      if (f.equals(SINGLE)) { // a two-lock run may end in its OOM before any worker frees (the engine's threads race)
        assertThat(text).contains("  free staged  # run.capture:");
      }
      Design inferred = dev.interlock.model.design.DesignParser.parse("inferred.design", text);
      Validation v = Validator.validate(inferred, "inferred.design", text, c, map(GROUP));
      assertThat(v).as(f).isInstanceOf(Validation.Conforms.class);
      assertThat(InferrerTest.verdict(inferred)).as(f).isEqualTo(InferrerTest.verdict(d));
      String plain = Inferrer.infer(c, Mapping.NONE, java.util.Optional.empty());
      assertThat(plain.lines().filter(l -> l.matches("  alloc \\S+ 4GiB .*")).count()).as(f).isEqualTo(3);
    }
  }

  @Test
  void inferRejectsAGroupCutByAnotherStep() {
    List<CaptureEvent> recs = new ArrayList<>(splitSingleLock());
    int first = indexOf(recs, 0, GroupsTest::part);
    long tid = recs.get(first).tid();
    int scratch = indexOf(recs, first, e -> e.tid() == tid && e instanceof CaptureEvent.Alloc a && a.bytes() == 2 * Sizes.GIB);
    recs.add(first + 1, recs.remove(scratch));
    List<CaptureEvent> renumbered = ValidatorTest.renumber(recs);
    Capture c = Runs.capture(renumbered);
    assertThatThrownBy(() -> Inferrer.infer(c, map(GROUP), java.util.Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("run.capture:" + renumbered.get(first + 1).line() + ":1: thread " + tid + ": this allocation cuts group staged after 1 of 3 parts");
  }
}
