package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the model trace a validation stepped ends: Completed, the real OOM, or Stopped for a prefix; each replays. */
class ValidatedTraceTest {
  private static final long SEED = 14;
  private static final String FILE = "designs/single-lock.design";

  private static Validator.Validated validate(Design d, List<CaptureEvent> records) {
    return Validator.validateRun(d, FILE, Runs.text(FILE), Runs.capture(records), Mapping.NONE);
  }

  /** The trace replays on the design and reads back equal from its file text. */
  private static void assertReplaysAndRoundTrips(Trace t, Design d) throws Exception {
    assertThat(Replayer.replay(t, d)).as("replay").isEqualTo(new ReplayResult.Confirmed(t.length(), t.outcome()));
    Trace back = TraceFormat.parse("validated.trace", TraceFormat.print(t));
    assertThat(back).isEqualTo(t);
    assertThat(Replayer.replay(back, d)).isInstanceOf(ReplayResult.Confirmed.class);
  }

  @Test
  void aWholeRunIsAPrefixOfTheModelWithMoreJobsThanItRan() throws Exception {
    // the validator gives each role more jobs than the capture shows (it cannot know how many the engine was given), so
    // the model's threads have not finished where the capture ends: Stopped, not Completed, which replay would refuse
    Design d = Runs.design(FILE);
    Validator.Validated run = validate(d, Runs.records(d, Runs.run(d, SEED), false));
    assertThat(run.validation()).isInstanceOf(Validation.Conforms.class);
    assertThat(run.trace().outcome()).isInstanceOf(Outcome.Stopped.class);
    assertReplaysAndRoundTrips(run.trace(), d);
    Trace asCompleted = new Trace(run.trace().design(), run.trace().source(), run.trace().params(), run.trace().seed(),
        new Outcome.Completed(), run.trace().steps());
    assertThat(Replayer.replay(asCompleted, d)).isInstanceOf(ReplayResult.Diverged.class);
  }

  @Test
  void aCaptureCutShortIsAStoppedPrefixThatConforms() throws Exception {
    Design d = Runs.design(FILE);
    List<CaptureEvent> all = Runs.records(d, Runs.run(d, SEED), false);
    Validator.Validated run = validate(d, all.subList(0, all.size() / 2));
    assertThat(run.validation()).isInstanceOf(Validation.Conforms.class);
    assertThat(run.trace().outcome()).isInstanceOfSatisfying(Outcome.Stopped.class, s ->
        assertThat(s.reason()).startsWith("CONFORMS: ").endsWith("; the capture ends before the design does"));
    assertThat(run.trace().length()).isPositive();
    assertReplaysAndRoundTrips(run.trace(), d);
  }

  @Test
  void aDivergingRunIsAStoppedPrefixWithTheDivergenceAsItsReason() throws Exception {
    Design d = Runs.design(FILE);
    List<CaptureEvent> recs = new ArrayList<>(Runs.records(d, Runs.run(d, SEED), false));
    int lock = 0;
    while (!(recs.get(lock) instanceof CaptureEvent.Acquire)) {
      lock++;
    }
    int alloc = lock + 1;
    while (!(recs.get(alloc) instanceof CaptureEvent.Alloc && recs.get(alloc).tid() == recs.get(lock).tid())) {
      alloc++;
    }
    recs.add(lock, recs.remove(alloc)); // an allocation before its lock
    List<CaptureEvent> renumbered = CaptureFormat.parse("run.capture", CaptureWriter.text(recs)).events();
    Validator.Validated run = validate(d, renumbered);
    assertThat(run.validation()).isInstanceOf(Validation.Diverges.class);
    assertThat(run.trace().outcome()).isEqualTo(new Outcome.Stopped(run.validation().summary()));
    assertReplaysAndRoundTrips(run.trace(), d);
  }
}
