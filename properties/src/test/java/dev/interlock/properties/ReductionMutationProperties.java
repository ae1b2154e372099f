package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.Explorer;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.PropertyResult;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.ReductionDesigns;
import dev.interlock.model.check.Exploration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Mutation tests of the reduction: each declares one step that does not commute local by mistake, and the property of
 * SearchReductionProperties (the reduced search decides as the plain one, on ReductionDesigns; here without overlap
 * queries, which no mutation below needs) must fail. Shrinking is cut short: the test only needs the failure. A mutation the property does not catch means the generator cannot catch that mistake.
 *
 * <p>The pool tie fallback (Explorer.Reduction#poolTieFallback) is a guard, not an independence claim: turning it off
 * changed no answer on these designs, so ExplorerTest shows that it triggers instead.
 */
class ReductionMutationProperties {
  /** Tries per mutation: each is caught within them today (the line printed says on which try). */
  private static final int TRIES = 1000;

  /** A rule that also takes steps matching {@code mistake} alone (when they move), besides the model's local ones. */
  private static Explorer.Reduction local(Mistake mistake) {
    return new Explorer.Reduction((m, s, t, visible) -> m.localStep(s, t, visible)
        || m.nextStep(s, t).map(step -> mistake.local(m, s, t, step, visible)).orElse(false), true);
  }

  @FunctionalInterface
  private interface Mistake {
    boolean local(Model m, long[] s, int t, Step step, boolean[] visible);
  }

  /**
   * The plain search of each design, kept across the mutations: they all draw the same designs (one seed), so each
   * design's plain search (without a query, the only one these tests ask) runs once.
   */
  private static final Map<Design, Exploration> PLAIN = new ConcurrentHashMap<>();

  private static void caught(String name, Explorer.Reduction wrong) {
    AtomicInteger cases = new AtomicInteger();
    AtomicInteger reduced = new AtomicInteger();
    Config config = Config.defaults("reduction mutations").withTries(TRIES).withMaxShrinks(5);
    PropertyResult<Design> result = PropertyRunner.check("reduction mutation: " + name, ReductionDesigns.designs(),
        d -> SearchReductionProperties.reducedDecidesAsPlain(d, wrong, List.of(Optional.empty()), cases, reduced,
            (design, q) -> PLAIN.computeIfAbsent(design, x -> SearchReductionProperties.plain(x, q))), config);
    System.out.println("[interlock] mutation '" + name + "': " + (result instanceof PropertyResult.Failed<Design> f
        ? "caught on try " + f.tryIndex() + "\n" + f.report() : "NOT caught in " + TRIES + " tries"));
    assertThat(result).as("the mutation '%s' is caught", name).isInstanceOf(PropertyResult.Failed.class);
  }

  private static boolean notVisible(Model m, String interval, boolean[] visible) {
    return !visible[m.intervalNames().indexOf(interval)];
  }

  @Test
  void freeDeclaredLocalIsCaught() {
    caught("free is local", local((m, s, t, step, v) -> step instanceof Free));
  }

  @Test
  void asyncAllocDeclaredLocalIsCaught() {
    caught("an async alloc is local", local((m, s, t, step, v) -> step instanceof Alloc a && a.async()));
  }

  @Test
  void plainAllocDeclaredLocalIsCaught() {
    caught("a plain alloc is local", local((m, s, t, step, v) -> step instanceof Alloc a && !a.async()));
  }

  @Test
  void lockDeclaredLocalIsCaught() {
    caught("lock is local", local((m, s, t, step, v) -> step instanceof Lock));
  }

  @Test
  void syncStreamDeclaredLocalIsCaught() {
    caught("sync stream is local", local((m, s, t, step, v) -> step instanceof SyncStream));
  }

  @Test
  void syncDeclaredLocalIsCaught() {
    caught("sync is local", local((m, s, t, step, v) -> step instanceof Sync));
  }

  @Test
  void ifFreeDeclaredLocalIsCaught() {
    caught("if free is local", local((m, s, t, step, v) -> step instanceof IfFree));
  }

  @Test
  void kernelEndUnderAsyncAllocationsDeclaredLocalIsCaught() {
    caught("a kernel's end is local (it synchronizes the stream)",
        local((m, s, t, step, v) -> step instanceof Kernel k && m.insideInterval(s, t) >= 0 && notVisible(m, k.name(), v)));
  }

  @Test
  void kernelBeginDeclaredLocalDespiteSharedBuffersOrSyncIsCaught() {
    caught("a kernel's begin is local (a task frees its buffer, or a sync waits for it)",
        local((m, s, t, step, v) -> step instanceof Kernel k && m.insideInterval(s, t) < 0 && notVisible(m, k.name(), v)));
  }

  @Test
  void bodyEndDeclaredLocalDespiteKeptBuffersIsCaught() {
    caught("a cpu step is local even where it ends the worker's last job (which frees its kept buffers)",
        local((m, s, t, step, v) -> step instanceof Cpu c && notVisible(m, c.name(), v)));
  }

  @Test
  void spawnDeclaredLocalDespiteAnotherJoinerIsCaught() {
    caught("spawn is local (another thread of the frame joins the task)", local((m, s, t, step, v) -> step instanceof Spawn));
  }

  @Test
  void joinDeclaredLocalDespiteAnotherSpawnerIsCaught() {
    caught("join is local once enabled (another thread may spawn the task again)",
        local((m, s, t, step, v) -> step instanceof Join && m.step(s, t, new long[m.width()]) == Model.MOVED));
  }
}
