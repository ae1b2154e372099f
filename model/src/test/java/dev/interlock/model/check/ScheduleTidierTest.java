package dev.interlock.model.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import org.junit.jupiter.api.Test;

/** Tidying keeps a schedule's length and ending and lowers its thread switches. */
class ScheduleTidierTest {

  @Test
  void twoLockCounterexampleBecomesOneSwitch() {
    Model m = new Model(TestDesigns.shipped("two-lock").withThreads("gpu_worker", 2));
    ScheduleTidier tidier = new ScheduleTidier(m, ViolationKind.OOM, s -> false);
    int[] interleaved = {0, 1, 0, 1, 0, 0, 0, 1, 1};
    assertThat(tidier.valid(interleaved)).isTrue();
    int[] tidy = tidier.tidy(interleaved);
    assertThat(tidy).containsExactly(0, 0, 0, 0, 0, 1, 1, 1, 1);
    assertThat(ScheduleTidier.switches(tidy)).isEqualTo(1);
  }

  @Test
  void aScheduleThatNeedsItsSwitchesKeepsThem() {
    // p must hold the lock while q locks n, so the deadlock needs both threads interleaved
    Model m = new Model(TestDesigns.parse("design ab\nvram 1GiB\nmutex a\nmutex b\n"
        + "role p\n  lock a\n  lock b\n  unlock b\n  unlock a\nrole q\n  lock b\n  lock a\n  unlock a\n  unlock b\n"));
    ScheduleTidier tidier = new ScheduleTidier(m, null, m::deadlocked);
    int[] schedule = {0, 1};
    assertThat(tidier.valid(schedule)).isTrue();
    assertThat(tidier.tidy(schedule)).containsExactly(0, 1);
  }

  @Test
  void invalidReorderingsAreRejected() {
    Model m = new Model(TestDesigns.shipped("two-lock").withThreads("gpu_worker", 2));
    ScheduleTidier tidier = new ScheduleTidier(m, ViolationKind.OOM, s -> false);
    assertThat(tidier.valid(new int[] {0, 0, 0, 0, 0, 1, 1, 1})).as("ends before the failing step").isFalse();
    assertThat(tidier.valid(new int[] {0, 0, 0, 1, 1, 1, 0, 1, 1})).as("1 blocks on mem_mtx").isFalse();
  }
}
