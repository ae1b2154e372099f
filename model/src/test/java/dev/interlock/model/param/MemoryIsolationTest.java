package dev.interlock.model.param;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.param.MemoryIsolation.Condition;
import dev.interlock.model.state.ViolationKind;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Memory isolation on hand-made designs: each condition, once broken, makes the answer UNKNOWN with the step that
 * breaks it; and each is needed, since without it the analysis would call SAFE a design whose exhaustive search
 * finds the violation.
 */
class MemoryIsolationTest {
  private static final Checker.Options OPTIONS = Checker.Options.defaults(2_000_000);
  private static final List<String> W = List.of("w");

  private static ParamAnswer analyze(Design d, Set<Condition> enforced) {
    return MemoryIsolation.analyze(d, W, 100_000, enforced);
  }

  private static ParamAnswer analyze(Design d) {
    return analyze(d, EnumSet.allOf(Condition.class));
  }

  private static Set<Condition> without(Condition c) {
    Set<Condition> s = EnumSet.allOf(Condition.class);
    s.remove(c);
    return s;
  }

  /** The violation the exhaustive search finds with {@code n} workers of w, or empty. */
  private static Optional<String> violation(Design d, int n) {
    Verdict v = Checker.check(d.withThreads("w", n), "<test>", OPTIONS).verdict();
    return v instanceof Verdict.Unsafe ? Optional.of(v.label()) : Optional.empty();
  }

  /** Asserts that without condition c the analysis says {@code kind} is safe for every number, which is false at n. */
  private static void neededAgainst(Design d, Condition c, ViolationKind kind, int n) {
    ParamAnswer wrong = analyze(d, without(c));
    assertThat(wrong).as("without " + c).isInstanceOf(ParamAnswer.Isolated.class);
    assertThat(((ParamAnswer.Isolated) wrong).minimal().get(kind)).as(kind + " without " + c).isEmpty();
    assertThat(violation(d, n)).contains(kind.name());
  }

  private static String unknown(Design d) {
    ParamAnswer a = analyze(d);
    assertThat(a).isInstanceOf(ParamAnswer.Unknown.class);
    return ((ParamAnswer.Unknown) a).reason();
  }

  @Test
  void headIsIsolatedByGpuMtxAndSafeForEveryNumber() {
    ParamAnswer a = MemoryIsolation.analyze(TestDesigns.shipped("cuzk/head"), List.of("gpu_worker"), 100_000,
        EnumSet.allOf(Condition.class));
    assertThat(a).isInstanceOf(ParamAnswer.Isolated.class);
    ParamAnswer.Isolated i = (ParamAnswer.Isolated) a;
    assertThat(i.mutex()).isEqualTo("gpu_mtx");
    assertThat(i.minimal().values()).allMatch(Optional::isEmpty);
  }

  @Test
  void aWorkerAloneReachingAViolationShowsItWithOneWorker() {
    Design d = TestDesigns.parse("""
        design alone
        vram 10GiB
        mutex m
        role w x3 jobs 1
          lock m
          alloc a 6GiB async
          sync stream
          alloc b 6GiB async
          on oom ignore
          kernel k uses a
          free a
          free b
          sync stream
          unlock m
        """);
    ParamAnswer.Isolated i = (ParamAnswer.Isolated) analyze(d);
    assertThat(i.minimal().get(ViolationKind.SWALLOWED_OOM)).contains(Map.of("w", 1));
    assertThat(i.minimal().get(ViolationKind.OOM)).isEmpty();
    assertThat(violation(d, 1)).contains("SWALLOWED_OOM");
  }

  @Test
  void anIfFreeOutsideTheMutexReadsTheHoldersBytes() {
    Design d = TestDesigns.parse("""
        design if-free-outside
        vram 10GiB
        mutex m
        role w x1 jobs 1
          if free >= 8GiB
          cpu c
          else
          unlock m
          end
          lock m
          alloc a 6GiB
          kernel k uses a
          free a
          unlock m
        """);
    assertThat(unknown(d)).isEqualTo("no mutex isolates device memory: 'if free >= 8GiB' runs while w's worker does"
        + " not hold m");
    neededAgainst(d, Condition.MEMORY_STEPS_UNDER_MUTEX, ViolationKind.UNLOCK_NOT_HELD, 2);
  }

  @Test
  void aBufferLiveBetweenTwoLockedSectionsCrowdsTheNextHolder() {
    Design d = TestDesigns.parse("""
        design live-outside
        vram 10GiB
        mutex m
        role w x1 jobs 1
          lock m
          alloc a 6GiB
          unlock m
          lock m
          kernel k uses a
          free a
          unlock m
        """);
    assertThat(unknown(d)).isEqualTo("no mutex isolates device memory: w's worker keeps 6GiB live (a 6GiB) without"
        + " holding m, after 'unlock m': the next holder of m allocates beside them");
    neededAgainst(d, Condition.NOTHING_LIVE_OUTSIDE, ViolationKind.OOM, 2);
  }

  @Test
  void anUnsynchronizedFreeLeftBehindFailsTheNextHoldersPlainAlloc() {
    String text = """
        design pending-outside
        vram 10GiB
        mutex m
        role w x1 jobs 1
          lock m
          alloc p 6GiB
          kernel k uses p
          free p
          alloc a 6GiB async
          kernel k uses a
          free a
          unlock m
        """;
    Design d = TestDesigns.parse(text);
    assertThat(unknown(d)).isEqualTo("no mutex isolates device memory: w's worker leaves 6GiB freed asynchronously and"
        + " not synchronized without holding m, after 'unlock m': a plain alloc of the next holder fails beside them");
    neededAgainst(d, Condition.NOTHING_PENDING_OUTSIDE, ViolationKind.OOM, 2);
    Design synced = TestDesigns.parse(text.replace("  free a\n", "  free a\n  sync stream\n"));
    assertThat(analyze(synced)).isInstanceOf(ParamAnswer.Isolated.class);
    assertThat(violation(synced, 3)).isEmpty();
  }

  @Test
  void anAsyncAllocBesideATasksPendingFreeDrawsOnWhatOtherWorkersCache() {
    // r1 leaves 3GiB cached on its stream and 2.5GiB on its task u's; t's 3GiB alloc takes the 3GiB, and w's 2GiB alloc
    // then fits u's cache more tightly than t's pending 3GiB, which stays pending: the plain 6GiB alloc fails beside
    // them, where alone (with nothing else cached) the 2GiB come out of t's pending bytes and it fits
    Design d = TestDesigns.parse("""
        design own-pending
        vram 10GiB
        pool threshold max
        mutex m
        task t
          alloc x 3GiB async
          kernel kx uses x
          free x
        task u
          alloc e 2560MiB async
          kernel ke uses e
          free e
          sync stream
        role w x1 jobs 1
          lock m
          spawn t
          join t
          alloc y 2GiB async
          kernel ky uses y
          alloc p 6GiB
          kernel kp uses p
          free p
          free y
          sync
          unlock m
        role r1 x1 jobs 1
          lock m
          alloc c 3GiB async
          kernel kc uses c
          spawn u
          join u
          free c
          sync stream
          unlock m
        """);
    assertThat(unknown(d)).isEqualTo("no mutex isolates device memory: 'alloc y 2GiB async' may draw on 3GiB that"
        + " another thread of w's worker freed asynchronously and has not synchronized: which stream the pool draws on"
        + " depends on what other workers cache");
    neededAgainst(d, Condition.OWN_PENDING_ONLY_AT_ASYNC_ALLOC, ViolationKind.OOM, 1);
  }

  @Test
  void anIfFreeCountsWhatOtherWorkersCacheUntilATrim() {
    String text = """
        design if-free-cached
        vram 10GiB
        pool threshold max
        mutex m
        role w x1 jobs 1
          lock m
          if free >= 8GiB
          cpu c
          else
          unlock m
          unlock m
          end
          alloc a 4GiB async
          kernel k uses a
          free a
          sync stream
          unlock m
        """;
    Design d = TestDesigns.parse(text);
    assertThat(unknown(d)).isEqualTo("no mutex isolates device memory: 'if free >= 8GiB' counts bytes that other"
        + " workers' streams may cache: no trim (or synchronization that releases every cached byte) between 'lock m'"
        + " and it");
    neededAgainst(d, Condition.IF_FREE_AFTER_RELEASE, ViolationKind.UNLOCK_NOT_HELD, 2);
    Design trimmed = TestDesigns.parse(text.replace("  lock m\n", "  lock m\n  trim\n"));
    assertThat(analyze(trimmed)).isInstanceOf(ParamAnswer.Isolated.class);
    assertThat(violation(trimmed, 3)).isEmpty();
  }

  @Test
  void aSyncReleasesEveryCachedByteOnlyUnderAThresholdOfZero() {
    String text = """
        design sync-release
        vram 10GiB
        pool threshold THRESHOLD
        mutex m
        role w x1 jobs 1
          lock m
          sync
          if free >= 8GiB
          cpu c
          else
          unlock m
          unlock m
          end
          alloc a 4GiB async
          kernel k uses a
          free a
          sync stream
          unlock m
        """;
    assertThat(analyze(TestDesigns.parse(text.replace("THRESHOLD", "0B")))).isInstanceOf(ParamAnswer.Isolated.class);
    Design kept = TestDesigns.parse(text.replace("THRESHOLD", "max"));
    assertThat(unknown(kept)).contains("'if free >= 8GiB' counts bytes that other workers' streams may cache");
    assertThat(violation(kept, 2)).contains("UNLOCK_NOT_HELD");
  }

  @Test
  void aDesignWithoutMutexesIsNotIsolated() {
    Design d = TestDesigns.parse("""
        design none
        vram 10GiB
        role w x1 jobs 1
          alloc a 6GiB async
          free a
        """);
    assertThat(unknown(d)).isEqualTo("no mutex isolates device memory: the design declares none");
  }
}
