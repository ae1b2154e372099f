package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The records added for try/timed calls, rwlocks, start/end ranges and marks, as validate and infer take them. */
class CaptureStepsTest {
  private static final long SEED = 14;
  private static final String HEAD = "# interlock capture v1\n# pid=1 program=p clock=CLOCK_MONOTONIC start_ns=0\n";

  @Test
  void startEndRangesOnOneThreadBecomePushPopAndOthersStay() throws Exception {
    Capture c = CaptureFormat.parse("r.capture", HEAD
        + "1 7 range_start name=stage domain=d id=1\n"
        + "2 7 mark name=here domain=-\n"
        + "3 7 range_end id=1\n"
        + "4 7 range_start name=upload domain=- id=2\n"
        + "5 8 range_end id=2\n" // ended by another thread: not an interval of either
        + "6 7 range_start name=a domain=- id=3\n"
        + "7 7 range_start name=b domain=- id=4\n"
        + "8 7 range_end id=3\n" // a ends while b, opened inside it, is open: a is no interval; b then is innermost
        + "9 7 range_end id=4\n"
        + "10 7 range_push name=p domain=-\n"
        + "11 7 range_start name=inner domain=- id=5\n"
        + "12 7 range_pop domain=-\n" // p closes while inner is open: inner crosses p
        + "13 7 range_end id=5\n"
        + "14 7 rdlock obj=rwlock@0x10 rc=0\n"
        + "15 7 rdunlock obj=rwlock@0x10\n"
        + "16 7 wrlock obj=rwlock@0x10 rc=0\n"
        + "17 7 wrunlock obj=rwlock@0x10\n");
    List<String> steps = CaptureSteps.of(c).events().stream().map(CaptureFormat::format).toList();
    assertThat(steps).containsExactly(
        "1 7 range_push name=stage domain=d", "2 7 mark name=here domain=-", "3 7 range_pop domain=d",
        "4 7 range_start name=upload domain=- id=2", "5 8 range_end id=2",
        "6 7 range_start name=a domain=- id=3", "7 7 range_push name=b domain=-", "8 7 range_end id=3",
        "9 7 range_pop domain=-",
        "10 7 range_push name=p domain=-", "11 7 range_start name=inner domain=- id=5", "12 7 range_pop domain=-",
        "13 7 range_end id=5",
        "16 7 wrlock obj=rwlock@0x10 rc=0", "17 7 wrunlock obj=rwlock@0x10");
  }

  /** A run of a shipped design, its records rewritten by {@code rewrite} (record by record), renumbered. */
  private static List<CaptureEvent> rewritten(Design d, Function<CaptureEvent, List<CaptureEvent>> rewrite) {
    List<CaptureEvent> out = new ArrayList<>();
    for (CaptureEvent e : Runs.records(d, Runs.run(d, SEED), true)) {
      out.addAll(rewrite.apply(e));
    }
    return renumbered(out);
  }

  private static List<CaptureEvent> renumbered(List<CaptureEvent> recs) {
    try {
      return CaptureFormat.parse("run.capture", CaptureWriter.text(recs)).events();
    } catch (CaptureFormatException e) {
      throw new AssertionError(e);
    }
  }

  private static Validation validate(String file, Design d, List<CaptureEvent> recs) {
    Validation v = Validator.validate(d, file, Runs.text(file), Runs.capture(recs), Mapping.NONE);
    System.out.println("[interlock] " + file + ": " + v.summary());
    return v;
  }

  /** Each lock as a failed trylock (EBUSY) then a taken timedlock; each push/pop as a start/end of one thread. */
  private static List<CaptureEvent> timedAndStartEnd(CaptureEvent e) {
    if (e instanceof CaptureEvent.Acquire a && a.kind() == CaptureEvent.AcquireKind.LOCK) {
      return List.of(new CaptureEvent.Acquire(0, a.nanos(), a.tid(), CaptureEvent.AcquireKind.TRYLOCK, a.obj(), 16),
          new CaptureEvent.Acquire(0, a.nanos(), a.tid(), CaptureEvent.AcquireKind.TIMEDLOCK, a.obj(), 0),
          new CaptureEvent.Mark(0, a.nanos(), a.tid(), "locked", "-"));
    }
    if (e instanceof CaptureEvent.Acquire a && a.kind() == CaptureEvent.AcquireKind.SEM_WAIT) {
      return List.of(new CaptureEvent.Acquire(0, a.nanos(), a.tid(), CaptureEvent.AcquireKind.SEM_TRYWAIT, a.obj(), 11),
          new CaptureEvent.Acquire(0, a.nanos(), a.tid(), CaptureEvent.AcquireKind.SEM_TIMEDWAIT, a.obj(), 110),
          new CaptureEvent.Acquire(0, a.nanos(), a.tid(), CaptureEvent.AcquireKind.SEM_TIMEDWAIT, a.obj(), 0));
    }
    return List.of(startEnd(e, e.tid()));
  }

  /** A push as a start/end range whose end is recorded by thread {@code endTid}; ids are the push's nanos + 1. */
  private static CaptureEvent startEnd(CaptureEvent e, long endTid) {
    if (e instanceof CaptureEvent.RangePush p) {
      return new CaptureEvent.RangeStart(0, p.nanos(), p.tid(), p.name(), p.domain(), p.tid() * 1_000_000 + p.nanos() + 1);
    }
    return e;
  }

  @Test
  void failedTryAndTimedCallsAreNotAcquiresTakenOnesAreAndMarksAreIgnored() {
    for (String f : List.of("designs/single-lock.design", "designs/reservation.design")) {
      Design d = Runs.design(f);
      Validation plain = validate(f, d, rewritten(d, List::of));
      Validation timed = validate(f, d, rewritten(d, e -> e instanceof CaptureEvent.RangePush ? List.of(e)
          : timedAndStartEnd(e)));
      assertThat(plain).isInstanceOf(Validation.Conforms.class);
      assertThat(timed).as(f).isEqualTo(plain);
    }
  }

  @Test
  void startEndRangesOfOneThreadAreTheDesignsIntervalsAndOnesEndedElsewhereAreNot() {
    String f = "designs/single-lock.design";
    Design d = Runs.design(f);
    Validation plain = validate(f, d, rewritten(d, List::of));
    Validation startEnd = validate(f, d, pushPopAsStartEnd(d, false));
    Validation elsewhere = validate(f, d, pushPopAsStartEnd(d, true));
    assertThat(startEnd).isEqualTo(plain);
    assertThat(elsewhere).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) elsewhere).matched()).as("the intervals are not seen")
        .isLessThan(((Validation.Conforms) plain).matched());
  }

  /** The run's push/pop ranges as start/end ranges, ended by their own thread or by another (tid + 1). */
  private static List<CaptureEvent> pushPopAsStartEnd(Design d, boolean elsewhere) {
    List<CaptureEvent> out = new ArrayList<>();
    java.util.Map<Long, java.util.Deque<Long>> open = new java.util.HashMap<>();
    long next = 1;
    for (CaptureEvent e : Runs.records(d, Runs.run(d, SEED), true)) {
      if (e instanceof CaptureEvent.RangePush p) {
        long id = next++;
        open.computeIfAbsent(p.tid(), k -> new java.util.ArrayDeque<>()).push(id);
        out.add(new CaptureEvent.RangeStart(0, p.nanos(), p.tid(), p.name(), p.domain(), id));
      } else if (e instanceof CaptureEvent.RangePop p) {
        out.add(new CaptureEvent.RangeEnd(0, p.nanos(), elsewhere ? p.tid() + 1 : p.tid(), open.get(p.tid()).pop()));
      } else {
        out.add(e);
      }
    }
    return renumbered(out);
  }

  @Test
  void aRwlockIsTheDesignsMutexAsItsWritersTakeItAndOverlappingReadersAreLeftOut() {
    String f = "designs/single-lock.design";
    Design d = Runs.design(f);
    Validation plain = validate(f, d, rewritten(d, List::of));
    Validation rw = validate(f, d, rewritten(d, e -> {
      if (e instanceof CaptureEvent.Acquire a && a.kind() == CaptureEvent.AcquireKind.LOCK) {
        // every other thread reads the lock just before this writer takes it: readers overlap, never a writer
        return List.of(new CaptureEvent.Acquire(0, a.nanos(), a.tid() + 100, CaptureEvent.AcquireKind.RDLOCK, a.obj(), 0),
            new CaptureEvent.Acquire(0, a.nanos(), a.tid() + 200, CaptureEvent.AcquireKind.RDLOCK, a.obj(), 0),
            new CaptureEvent.Release(0, a.nanos(), a.tid() + 100, CaptureEvent.ReleaseKind.RDUNLOCK, a.obj()),
            new CaptureEvent.Release(0, a.nanos(), a.tid() + 200, CaptureEvent.ReleaseKind.RDUNLOCK, a.obj()),
            new CaptureEvent.Acquire(0, a.nanos(), a.tid(), CaptureEvent.AcquireKind.WRLOCK, a.obj(), 0));
      }
      if (e instanceof CaptureEvent.Release r && r.kind() == CaptureEvent.ReleaseKind.UNLOCK) {
        return List.of(new CaptureEvent.Release(0, r.nanos(), r.tid(), CaptureEvent.ReleaseKind.WRUNLOCK, r.obj()));
      }
      return List.of(e);
    }));
    assertThat(rw).isEqualTo(plain);
  }

  @Test
  void inferTakesTimedLocksAsLocksAndStartEndRangesAsIntervals() throws Exception {
    String f = "designs/single-lock.design";
    Design d = Runs.design(f);
    Capture c = Runs.capture(pushPopAsStartEnd(d, false));
    List<CaptureEvent> timed = new ArrayList<>();
    for (CaptureEvent e : c.events()) {
      timed.addAll(timedAndStartEnd(e));
    }
    Capture capture = Runs.capture(renumbered(timed));
    String text = Inferrer.infer(capture, Mapping.NONE, Optional.empty());
    System.out.println("[interlock] inferred from timed locks and start/end ranges:\n" + text);
    assertThat(text).contains("mutex compute_mtx").contains("lock compute_mtx").contains("cpu synthesize")
        .doesNotContain("semaphore");
    Design inferred = DesignParser.parse("inferred.design", text);
    assertThat(Validator.validate(inferred, "inferred.design", text, capture, Mapping.NONE))
        .isInstanceOf(Validation.Conforms.class);
    assertThat(InferrerTest.verdict(inferred)).isEqualTo(InferrerTest.verdict(d));
  }
}
