package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.engine.RunReport;
import dev.interlock.model.design.Design;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValidatorTest {
  private static final long SEED = 14;

  private static Validation validate(String file, Design d, List<CaptureEvent> records, Mapping map) {
    return Validator.validate(d, file, Runs.text(file), Runs.capture(records), map);
  }

  @Test
  void anUnnamedThreadGoesToTheRoleWhoseAllocationIsAsyncLikeItsOwn() throws Exception {
    // ObserveProperties found it (seed 5478469391592714913, try 27, shrunk): both roles allocate b0 1GiB, one plain and
    // one async; the async thread was given the plain role and diverged at its first allocation
    String design = String.join("\n", "design random", "vram 2GiB", "pool threshold 1GiB",
        "role r0 x1 jobs 1", "  alloc b0 1GiB", "  free b0", "role r1 x1 jobs 1", "  alloc b0 1GiB async", "  free b0", "");
    String capture = String.join("\n", "# interlock capture v1",
        "# pid=1 program=/synthetic/engine clock=CLOCK_MONOTONIC start_ns=0",
        "0 3999 meminfo free=2147483648 total=2147483648 rc=0",
        "0 3999 thread_start child=4000 rc=0",
        "439510 4000 alloc ptr=0x7f0000000000 bytes=1073741824 async=0 stream=- rc=0 api=cuMemAlloc_v2",
        "0 3999 thread_start child=4001 rc=0",
        "490266 4001 alloc ptr=0x7f0040000000 bytes=1073741824 async=1 stream=0xfa1 rc=0 api=cuMemAllocAsync",
        "510255 4000 free ptr=0x7f0000000000 async=1 stream=0xfa0 rc=0 api=cuMemFreeAsync",
        "583484 4001 free ptr=0x7f0040000000 async=1 stream=0xfa1 rc=0 api=cuMemFreeAsync", "");
    Design d = dev.interlock.model.design.DesignParser.parse("random.design", design);
    Validation v = Validator.validate(d, "random.design", design, CaptureFormat.parse("run.capture", capture), Mapping.NONE);
    assertThat(v).isInstanceOf(Validation.Conforms.class);
  }

  @Test
  void shippedDesignsConformToTheirOwnRuns() {
    for (String f : List.of("designs/two-lock.design", "designs/single-lock.design", "designs/reservation.design")) {
      Design d = Runs.design(f);
      for (long seed = SEED; seed < SEED + 3; seed++) {
        for (boolean named : List.of(true, false)) {
          RunReport r = Runs.run(d, seed);
          Validation v = validate(f, d, Runs.records(d, r, named), Mapping.NONE);
          System.out.println("[interlock] " + f + " seed=" + seed + " named=" + named + ": " + v.summary());
          assertThat(v).as(f + " seed " + seed).isInstanceOf(Validation.Conforms.class);
        }
      }
    }
  }

  @Test
  void twoLockOomConformsUpToTheFailingAllocation() {
    Design d = Runs.design("designs/two-lock.design");
    for (long seed = SEED; seed < SEED + 20; seed++) {
      RunReport r = Runs.run(d, seed);
      List<CaptureEvent> recs = Runs.records(d, r, false);
      if (recs.get(recs.size() - 1) instanceof CaptureEvent.Alloc a && a.outOfMemory()) {
        Validation v = validate("designs/two-lock.design", d, recs, Mapping.NONE);
        System.out.println("[interlock] two-lock seed=" + seed + ": " + v.summary());
        assertThat(v).isInstanceOf(Validation.Conforms.class);
        assertThat(((Validation.Conforms) v).oomLine()).isEqualTo(a.line());
        return;
      }
    }
    throw new AssertionError("no two-lock run out of memory in 20 seeds from " + SEED);
  }

  @Test
  void anAllocMovedBeforeItsLockDivergesThere() {
    String f = "designs/single-lock.design";
    Design d = Runs.design(f);
    List<CaptureEvent> recs = new ArrayList<>(Runs.records(d, Runs.run(d, SEED), false));
    int lock = -1;
    for (int i = 0; i < recs.size(); i++) {
      if (recs.get(i) instanceof CaptureEvent.Acquire) {
        lock = i;
        break;
      }
    }
    long owner = recs.get(lock).tid();
    int alloc = lock + 1;
    while (!(recs.get(alloc) instanceof CaptureEvent.Alloc && recs.get(alloc).tid() == owner)) {
      alloc++;
    }
    recs.add(lock, recs.remove(alloc));
    List<CaptureEvent> renumbered = renumber(recs);
    Validation v = validate(f, d, renumbered, Mapping.NONE);
    System.out.println("[interlock] " + v.summary());
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    Validation.Diverges dv = (Validation.Diverges) v;
    assertThat(dv.line()).isEqualTo(renumbered.get(lock).line());
    assertThat(dv.message()).contains("while not holding compute_mtx")
        .contains("the design allocates staged only under compute_mtx (designs/single-lock.design:")
        .contains("run.capture:" + dv.line());
  }

  @Test
  void aDroppedUnlockDivergesAtTheNextLock() {
    String f = "designs/single-lock.design";
    Design d = Runs.design(f);
    List<CaptureEvent> recs = new ArrayList<>(Runs.records(d, Runs.run(d, SEED), true));
    int unlock = -1;
    for (int i = 0; i < recs.size(); i++) {
      if (recs.get(i) instanceof CaptureEvent.Release) {
        unlock = i;
        break;
      }
    }
    long tid = recs.get(unlock).tid();
    recs.remove(unlock);
    List<CaptureEvent> renumbered = renumber(recs);
    Validation v = validate(f, d, renumbered, Mapping.NONE);
    System.out.println("[interlock] " + v.summary());
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    CaptureEvent at = renumbered.stream().filter(e -> e.line() == ((Validation.Diverges) v).line()).findFirst().orElseThrow();
    // the first event after the missing unlock that the design does not allow: the owner's next range, or another lock
    assertThat(at.line()).isGreaterThanOrEqualTo(renumbered.get(unlock).line());
    assertThat(at.tid() == tid || at instanceof CaptureEvent.Acquire).isTrue();
  }

  @Test
  void anUnmappedAllocDivergesUnlessIgnored() throws Exception {
    String f = "designs/single-lock.design";
    Design d = Runs.design(f);
    List<CaptureEvent> recs = new ArrayList<>(Runs.records(d, Runs.run(d, SEED), false));
    int first = 0;
    while (!(recs.get(first) instanceof CaptureEvent.Acquire)) {
      first++;
    }
    long tid = recs.get(first).tid();
    recs.add(first + 1, new CaptureEvent.Alloc(0, 0, tid, 0x1234000, 4096, false, "-", 0, "cuMemAlloc_v2"));
    List<CaptureEvent> renumbered = renumber(recs);
    Validation v = validate(f, d, renumbered, Mapping.NONE);
    System.out.println("[interlock] " + v.summary());
    assertThat(v).isInstanceOf(Validation.Diverges.class);
    assertThat(((Validation.Diverges) v).line()).isEqualTo(renumbered.get(first + 1).line());
    assertThat(v.summary()).contains("ignore alloc 4096");
    Validation ok = validate(f, d, renumbered, Mapping.parse("x.map", "ignore alloc 4KiB\n"));
    assertThat(ok).isInstanceOf(Validation.Conforms.class);
  }

  /** The records with consecutive line numbers from 3, as a file of them would have. */
  static List<CaptureEvent> renumber(List<CaptureEvent> recs) {
    try {
      return CaptureFormat.parse("run.capture", CaptureWriter.text(recs.stream().toList())).events();
    } catch (CaptureFormatException e) {
      throw new AssertionError(e);
    }
  }
}
