package dev.interlock.model.state;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The transition semantics, one rule at a time, on small designs driven thread by thread. */
class ModelTest {

  private static final String HEAD = "design t\nvram 16GiB\nmutex m\nmutex n\nsemaphore sem 3\n";

  @Test
  void aThreadsBuffersAreListedInTheDesignsOrder() {
    // Map.copyOf's order changes from one JVM run to the next: with eight buffers a wrong order is all but certain
    StringBuilder body = new StringBuilder();
    List<String> names = List.of("h", "g", "f", "e", "d", "c", "b", "a");
    names.forEach(b -> body.append("  alloc ").append(b).append(" 1GiB\n"));
    names.forEach(b -> body.append("  free ").append(b).append("\n"));
    ModelDriver d = new ModelDriver(HEAD + "role w\n" + body);
    d.run(0, names.size());
    assertThat(d.model.view(d.s, 0).buffers().keySet()).containsExactlyElementsOf(names);
  }

  @Test
  void allocationFailsExactlyWhenLiveBytesPlusRequestExceedVram() {
    ModelDriver d = new ModelDriver(HEAD + "role w x2\n  alloc a 10GiB\n  free a\n");
    d.run(0, 1);
    assertThat(d.model.live(d.s)).isEqualTo(10 * GIB);
    assertThat(d.step(1)).isEqualTo(16 + ViolationKind.OOM.ordinal());
    assertThat(Model.violation(d.step(1))).isEqualTo(ViolationKind.OOM);
    ModelDriver exact = new ModelDriver(HEAD + "role w x2\n  alloc a 8GiB\n  free a\n");
    exact.run(0, 1);
    assertThat(exact.step(1)).as("8 + 8 = 16 fits exactly").isEqualTo(Model.MOVED);
    assertThat(exact.model.used(exact.s)).isEqualTo(16 * GIB);
  }

  @Test
  void asyncFreeCachesBytesThatStillCountAsUsedAndAPlainAllocGetsThemBackOnlyOnceSettled() {
    ModelDriver d = new ModelDriver(HEAD + "role w\n  alloc a 8GiB async\n  free a\n  alloc b 12GiB\n  free b\n");
    d.run(0, 2);
    assertThat(d.model.cached(d.s)).isEqualTo(8 * GIB);
    assertThat(d.model.used(d.s)).isEqualTo(8 * GIB);
    assertThat(d.model.live(d.s)).isZero();
    // no synchronization has seen the free: the driver cannot release those bytes for a plain alloc (H200, driver 580)
    assertThat(Model.violation(d.step(0))).isEqualTo(ViolationKind.OOM);
    ModelDriver settled = new ModelDriver(HEAD.replace("vram 16GiB\n", "vram 16GiB\npool threshold max\n")
        + "role w\n  alloc a 8GiB async\n  free a\n  sync stream\n  alloc b 12GiB\n  free b\n");
    settled.run(0, 3);
    assertThat(settled.model.cached(settled.s)).as("threshold max keeps the settled bytes").isEqualTo(8 * GIB);
    // 12 GiB plain does not fit next to 8 GiB settled: the driver releases them, then it fits
    settled.run(0, 1);
    assertThat(settled.model.cached(settled.s)).isZero();
    assertThat(settled.model.used(settled.s)).isEqualTo(12 * GIB);
  }

  @Test
  void plainAllocThatFitsBesideTheCacheLeavesTheCache() {
    ModelDriver d = new ModelDriver(HEAD.replace("16GiB", "32GiB") + "role w\n  alloc a 8GiB async\n  free a\n  alloc b 12GiB\n  free b\n");
    d.run(0, 3);
    assertThat(d.model.cached(d.s)).isEqualTo(8 * GIB);
    assertThat(d.model.used(d.s)).isEqualTo(20 * GIB);
  }

  @Test
  void asyncAllocReusesCachedBytesAndGrowsThePoolForTheRest() {
    ModelDriver d = new ModelDriver(HEAD + "role w\n  alloc a 8GiB async\n  free a\n  alloc b 12GiB async\n  free b\n");
    d.run(0, 3);
    assertThat(d.model.cached(d.s)).isZero();
    assertThat(d.model.live(d.s)).isEqualTo(12 * GIB);
    ModelDriver partial = new ModelDriver(HEAD + "role w\n  alloc a 8GiB async\n  free a\n  alloc b 3GiB async\n  free b\n");
    partial.run(0, 3);
    assertThat(partial.model.cached(partial.s)).isEqualTo(5 * GIB);
    assertThat(partial.model.used(partial.s)).isEqualTo(8 * GIB);
  }

  @Test
  void asyncAllocFailsWhileLivePlainBytesLeaveNoRoom() {
    ModelDriver d = new ModelDriver(HEAD + "role p\n  alloc a 12GiB\n  free a\nrole q\n  alloc b 8GiB async\n  free b\n");
    d.run(0, 1);
    assertThat(Model.violation(d.step(1))).isEqualTo(ViolationKind.OOM);
  }

  @Test
  void trimReturnsCachedBytesButNeverLiveOnes() {
    ModelDriver d = new ModelDriver(HEAD + "role w\n  alloc a 4GiB async\n  alloc b 2GiB async\n  free a\n  trim\n  free b\n");
    d.run(0, 3);
    assertThat(d.model.cached(d.s)).isEqualTo(4 * GIB);
    d.run(0, 1);
    assertThat(d.model.cached(d.s)).isZero();
    assertThat(d.model.live(d.s)).isEqualTo(2 * GIB);
  }

  @Test
  void syncWaitsForKernelsOfEveryThreadButNotForCpuWork() {
    ModelDriver d = new ModelDriver(HEAD + "role g\n  kernel k\nrole c\n  cpu x\nrole s\n  sync\n");
    d.run(1, 1);
    assertThat(d.step(2)).as("a thread inside cpu work does not hold up sync").isEqualTo(Model.MOVED);
    ModelDriver k = new ModelDriver(HEAD + "role g\n  kernel k\nrole s\n  sync\n");
    k.run(0, 1);
    assertThat(k.step(1)).isEqualTo(Model.BLOCKED);
    k.run(0, 1);
    assertThat(k.step(1)).isEqualTo(Model.MOVED);
  }

  @Test
  void mutexBlocksOtherThreadsAndSelfLockIsADeadlock() {
    ModelDriver d = new ModelDriver(HEAD + "role w x2\n  lock m\n  unlock m\n");
    d.run(0, 1);
    assertThat(d.step(1)).isEqualTo(Model.BLOCKED);
    d.run(0, 1);
    assertThat(d.step(1)).isEqualTo(Model.MOVED);
    ModelDriver self = new ModelDriver(HEAD + "role w\n  lock m\n  lock m\n");
    self.run(0, 1);
    assertThat(Model.violation(self.step(0))).isEqualTo(ViolationKind.DEADLOCK);
    assertThat(self.model.explain(self.s, 0, ViolationKind.DEADLOCK)).contains("already holds");
  }

  @Test
  void unlockOfAMutexNotHeldIsAViolation() {
    ModelDriver d = new ModelDriver(HEAD + "role w x2\n  lock m\n  unlock m\nrole v\n  unlock m\n");
    d.run(0, 1);
    assertThat(Model.violation(d.step(2))).as("held by another thread").isEqualTo(ViolationKind.UNLOCK_NOT_HELD);
  }

  @Test
  void semaphorePermitsAreCountedAndExcessReleasesCaught() {
    ModelDriver d = new ModelDriver(HEAD + "role w x2\n  acquire sem 2\n  release sem 2\nrole v\n  release sem\n");
    d.run(0, 1);
    assertThat(d.step(1)).as("1 of 3 permits left, 2 wanted").isEqualTo(Model.BLOCKED);
    assertThat(Model.violation(d.step(2))).as("v holds none").isEqualTo(ViolationKind.RELEASE_EXCESS);
    d.run(0, 1);
    assertThat(d.step(1)).isEqualTo(Model.MOVED);
    assertThat(d.model.view(d.s, 1).permits()).containsEntry("sem", 2);
  }

  @Test
  void bufferMisuseIsCaught() {
    ModelDriver uaf = new ModelDriver(HEAD + "role w\n  alloc a 1GiB\n  free a\n  kernel k uses a\n");
    uaf.run(0, 2);
    assertThat(Model.violation(uaf.step(0))).isEqualTo(ViolationKind.USE_AFTER_FREE);
    ModelDriver badFree = new ModelDriver(HEAD + "role w\n  free a\n");
    assertThat(Model.violation(badFree.step(0))).isEqualTo(ViolationKind.BAD_FREE);
    ModelDriver leak = new ModelDriver(HEAD + "role w jobs 2\n  alloc a 1GiB\n  cpu x\n");
    leak.run(0, 2);
    assertThat(Model.violation(leak.step(0))).as("job ends with a live buffer").isEqualTo(ViolationKind.LEAK);
    ModelDriver overwrite = new ModelDriver(HEAD + "role w\n  alloc a 1GiB\n  alloc a 1GiB\n  free a\n");
    overwrite.run(0, 1);
    assertThat(Model.violation(overwrite.step(0))).isEqualTo(ViolationKind.LEAK);
  }

  @Test
  void buffersArePerThread() {
    ModelDriver d = new ModelDriver(HEAD + "role w x2\n  alloc a 1GiB\n  kernel k uses a\n  free a\n");
    d.run(0, 1);
    assertThat(Model.violation(d.step(1))).isNull();
    d.run(0, 3);
    d.run(1, 3);
    assertThat(d.model.allFinished(d.s)).isTrue();
    assertThat(d.model.used(d.s)).isZero();
  }

  @Test
  void jobsRepeatTheBodyAndFinishedThreadsStayFinished() {
    ModelDriver d = new ModelDriver(HEAD + "role w jobs 3\n  cpu x\n");
    d.run(0, 6);
    assertThat(d.step(0)).isEqualTo(Model.FINISHED);
    assertThat(d.model.view(d.s, 0).position()).isEqualTo("finished");
  }

  @Test
  void restartReleasesWhatAThreadHoldsAndPutsItAtTheStartOfItsFirstJob() {
    ModelDriver d = new ModelDriver(HEAD + "role w jobs 2\n  lock m\n  acquire sem 2\n  alloc a 2GiB async\n  alloc b 3GiB\n"
        + "  free b\n  free a\n  release sem 2\n  unlock m\nrole v\n  alloc c 1GiB\n  lock m\n  unlock m\n  free c\n");
    d.run(0, 4);
    d.run(1, 1);
    ThreadView other = d.model.view(d.s, 1);
    long[] before = d.s.clone();
    long[] r = d.model.restart(d.s, 0);
    assertThat(d.s).as("s itself is unchanged").isEqualTo(before);
    ThreadView w = d.model.view(r, 0);
    assertThat(w.job()).isZero();
    assertThat(w.next()).contains(d.model.design().roles().get(0).body().get(0));
    assertThat(w.mutexes()).isEmpty();
    assertThat(w.permits()).isEmpty();
    assertThat(w.buffers()).isEmpty();
    assertThat(d.model.view(r, 1)).as("other threads keep their state").isEqualTo(other);
    assertThat(d.model.live(r)).as("only v's buffer is live").isEqualTo(1 * GIB);
    assertThat(d.model.cached(r)).as("the async buffer went into the cache, the plain one did not").isEqualTo(2 * GIB);
    d.s = r;
    d.run(1, 1);
    assertThat(d.model.view(d.s, 1).mutexes()).as("the mutex is free again").containsExactly("m");
    d.run(1, 2);
    d.run(0, 2);
    assertThat(d.model.view(d.s, 0).permits()).as("all 3 permits are free again").containsEntry("sem", 2);
  }

  @Test
  void restartFreesEachBufferByTheAllocThatMadeIt() {
    ModelDriver d = new ModelDriver(HEAD + "role w\n  alloc a 2GiB async\n  free a\n  alloc a 2GiB\n  free a\n");
    d.run(0, 3);
    assertThat(d.model.cached(d.s)).isEqualTo(2 * GIB);
    long[] r = d.model.restart(d.s, 0);
    assertThat(d.model.live(r)).isZero();
    assertThat(d.model.cached(r)).as("the live a came from the plain alloc: nothing more is cached").isEqualTo(2 * GIB);
  }

  @Test
  void restartOfAThreadHoldingNothingOnlyForgetsItsJobCount() {
    ModelDriver d = new ModelDriver(HEAD + "role w jobs 3\n  cpu x\n");
    d.run(0, 2);
    assertThat(d.model.view(d.s, 0).job()).isEqualTo(1);
    assertThat(d.model.restart(d.s, 0)).isEqualTo(d.model.initial());
  }

  @Test
  void intervalsHaveBeginAndEndAndOverlapIsBetweenDistinctThreads() {
    ModelDriver d = new ModelDriver(HEAD + "role w x2\n  cpu a\n  kernel b\n");
    int a = d.model.intervalNames().indexOf("a");
    int b = d.model.intervalNames().indexOf("b");
    d.run(0, 1);
    assertThat(d.model.nextPhase(d.s, 0)).contains(Phase.END);
    assertThat(d.model.overlaps(d.s, a, a)).isFalse();
    d.run(1, 1);
    assertThat(d.model.overlaps(d.s, a, a)).isTrue();
    assertThat(d.model.overlaps(d.s, a, b)).isFalse();
    d.run(1, 2);
    assertThat(d.model.overlaps(d.s, a, b)).isTrue();
    assertThat(d.model.overlaps(d.s, b, a)).isTrue();
  }

  @Test
  void deadlockedStatesAreRecognizedAndExplained() {
    ModelDriver d = new ModelDriver(HEAD + "role p\n  lock m\n  lock n\n  unlock n\n  unlock m\nrole q\n  lock n\n  lock m\n  unlock m\n  unlock n\n");
    d.run(0, 1);
    d.run(1, 1);
    assertThat(d.model.deadlocked(d.s)).isTrue();
    assertThat(d.model.explainDeadlock(d.s)).contains("p#0 at 'lock n' (job 1), held by q#0").contains("q#0 at 'lock m' (job 1), held by p#0");
  }

  @Test
  void canonicalizationSortsThreadsWithinARoleOnly() {
    ModelDriver d = new ModelDriver(HEAD + "role w x2\n  cpu a\nrole v x2\n  cpu b\n");
    d.run(1, 1);
    d.run(3, 1);
    long[] c = d.s.clone();
    d.model.canonicalize(c);
    ModelDriver e = new ModelDriver(HEAD + "role w x2\n  cpu a\nrole v x2\n  cpu b\n");
    e.run(0, 1);
    e.run(2, 1);
    long[] c2 = e.s.clone();
    e.model.canonicalize(c2);
    assertThat(c).isEqualTo(c2);
    assertThat(d.model.correspondingThread(d.s, c, 0)).isEqualTo(0);
  }
}
