package dev.interlock.model.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@code Schedules.random} on several threads reports what it reports on one: the violation of the smallest index. */
class ParallelRandomTest {
  /** Three workers OOM only when all three buffers are live at once: a rare schedule. */
  private static final Design RARE = TestDesigns.parse("""
      design rare
      vram 16GiB
      role w x3 jobs 1
        cpu a
        cpu b
        cpu c
        alloc buf 6GiB
        free buf
        cpu d
        cpu e
        cpu f
      """);

  @Test
  void theSameSeedGivesTheSameFirstViolationOnOneTwoAndFourThreads() {
    int later = 0;
    Model m = new Model(RARE);
    for (long seed = 1000; seed <= 40_000; seed += 1000) {
      Schedules.RandomResult one = Schedules.random(m, "<test>", seed, 2000, 1, SearchListener.NONE);
      assertThat(one.violating()).as("seed %d", seed).isPresent();
      later += one.schedules() > 4 ? 1 : 0;
      for (int threads : new int[] {2, 4}) {
        Schedules.RandomResult r = Schedules.random(m, "<test>", seed, 2000, threads, SearchListener.NONE);
        assertThat(r.schedules()).as("seed %d, %d threads", seed, threads).isEqualTo(one.schedules());
        assertThat(r.violating()).as("seed %d, %d threads", seed, threads).isEqualTo(one.violating());
        assertThat(r.run()).isGreaterThanOrEqualTo(r.schedules());
        assertThat(r.threads()).isEqualTo(threads);
      }
    }
    // the seeds must exercise the rule: a first violation past the first few indices, which another thread may pass
    assertThat(later).isGreaterThan(10);
  }

  @Test
  void theViolatingScheduleReplaysAloneFromItsOwnSeed() {
    Model m = new Model(RARE);
    Schedules.RandomResult r = Schedules.random(m, "<test>", 7000, 2000, 2, SearchListener.NONE);
    long own = r.violating().orElseThrow().seed().orElseThrow();
    assertThat(r.schedules()).isGreaterThan(4);
    assertThat(own).isEqualTo(7000 + r.schedules() - 1);
    assertThat(Schedules.random(m, "<test>", own, 1, 1, SearchListener.NONE).violating()).isEqualTo(r.violating());
  }

  @Test
  void withoutAViolationEveryScheduleRunsAndTheListenerHearsThem() {
    Model m = new Model(TestDesigns.shipped("single-lock"));
    AtomicLong heard = new AtomicLong();
    SearchListener l = new SearchListener() {
      @Override
      public void schedules(long run, long transitions) {
        heard.accumulateAndGet(run, Math::max);
      }
    };
    Schedules.RandomResult r = Schedules.random(m, "<test>", 5, 1000, 2, l);
    assertThat(r.violating()).isEmpty();
    assertThat(r.schedules()).isEqualTo(1000);
    assertThat(r.run()).isEqualTo(1000);
    assertThat(heard.get()).isPositive().isLessThanOrEqualTo(1000);
    assertThat(r.schedulesPerSecond()).isPositive();
  }
}
