package dev.interlock.model.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Step;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import dev.interlock.model.trace.TraceStep;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The verdicts of designs/cuzk/, as their header comments state them. */
class CuzkCorpusTest {
  private static final Checker.Options OPTS = Checker.Options.defaults(20_000_000);

  private static CheckReport check(String name) {
    return Checker.check(TestDesigns.shipped("cuzk/" + name), "designs/cuzk/" + name + ".design", OPTS);
  }

  @Test
  void phase8IsSafeAndItsBG2MsmOverlapsTheOtherWorkersKernels() {
    Design d = TestDesigns.shipped("cuzk/phase8");
    CheckReport r = Checker.check(d, "<test>", OPTS.withOverlap(new OverlapQuery("b_g2_msm", "ntt_msm")));
    assertThat(r.verdict()).isEqualTo(new Verdict.Safe());
    assertThat(r.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.REACHABLE);
  }

  @Test
  void phase10FailsOnTheFallbackAllocationUnderComputeMtxAfterAGuardSawTooLittleFree() {
    CheckReport r = check("phase10");
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 2));
    List<TraceStep> steps = r.counterexample().orElseThrow().steps();
    assertThat(steps).hasSize(22);
    TraceStep last = steps.get(steps.size() - 1);
    assertThat(last.step().text()).isEqualTo("alloc d_bc 8GiB");
    // each worker synchronizes the device under mem_mtx before its trim (P11's cudaDeviceSynchronize)
    assertThat(steps.stream().filter(s -> s.step().text().equals("sync")).map(TraceStep::thread))
        .containsExactlyInAnyOrder("gpu_worker#0", "gpu_worker#1");
    // the failing worker's guard took the else branch, reading only what the other worker's pre-staging left
    TraceStep guard = steps.stream().filter(s -> s.thread().equals(last.thread()) && s.free().isPresent())
        .reduce((a, b) -> b).orElseThrow();
    assertThat(guard.phase()).contains(Phase.ELSE);
    assertThat(guard.free()).contains(4 * Sizes.GIB);
    // and the failing allocation happens under compute_mtx
    int lockAt = steps.indexOf(steps.stream().filter(s -> s.thread().equals(last.thread())
        && s.step().text().equals("lock compute_mtx")).findFirst().orElseThrow());
    assertThat(lockAt).isGreaterThan(steps.indexOf(guard));
  }

  /** On a card below 16 GiB (a 16 GB card less its context) the first allocation to fail is the fallback's d_a. */
  @Test
  void phase10OnASmallerCardFailsAtTheFallbacksDA() {
    Design d = TestDesigns.shipped("cuzk/phase10").withVram(15872 * Sizes.MIB);
    CheckReport r = Checker.check(d, "<test>", OPTS);
    assertThat(r.verdict().label()).isEqualTo("OOM");
    List<TraceStep> steps = r.counterexample().orElseThrow().steps();
    assertThat(steps).hasSize(20);
    assertThat(steps.get(19).step().text()).isEqualTo("alloc d_a 4GiB async");
  }

  /** Proposal 10 with d_bc live through the H MSM, as its only changed file leaves it: phase 9's failure. */
  @Test
  void phase10WithDbcLiveThroughTheHMsmSwallowsItsFailureWithOneWorker() {
    CheckReport r = check("phase10-dbc-live");
    assertThat(r.verdict().label()).isEqualTo("SWALLOWED_OOM");
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 1));
    List<TraceStep> steps = r.counterexample().orElseThrow().steps();
    assertThat(steps).hasSize(16);
    assertThat(steps.get(15).step().text()).isEqualTo("alloc h_temp 4544MiB async");
    assertThat(steps.get(15).phase()).contains(Phase.OOM);
  }

  @Test
  void phases9To12SwallowTheHMsmsFailedAllocationEvenWithOneWorker() {
    for (String phase : List.of("phase9", "phase11", "phase12")) {
      CheckReport r = check(phase);
      assertThat(r.verdict().label()).as(phase).isEqualTo("SWALLOWED_OOM");
      assertThat(r.threads()).as(phase).isEqualTo(Map.of("gpu_worker", 1));
      List<TraceStep> steps = r.counterexample().orElseThrow().steps();
      assertThat(steps).as(phase).hasSize(14);
      TraceStep last = steps.get(13);
      assertThat(last.step().text()).isEqualTo("alloc h_temp 4544MiB async");
      assertThat(last.phase()).as(phase).contains(Phase.OOM);
      // on the pre-staged path, with d_bc still live
      assertThat(steps.get(6).phase()).as(phase).contains(Phase.THEN);
      assertThat(steps).as(phase).anySatisfy(s -> assertThat(s.step().text()).isEqualTo("alloc d_bc 8GiB"));
      // the message names the kernel that runs without h_temp
      assertThat(((Verdict.Unsafe) r.verdict()).violation().message()).as(phase)
          .contains("these steps run without it: gpu_worker#0: kernel ntt_msm uses d_a h_buckets h_temp");
    }
  }

  /**
   * With proposal 10's H-MSM sizes the pre-staged path fits, and nothing else fails (a reached pre-staging handler
   * takes the fallback path): the failures of phases 9 to 12 are the sizes'.
   */
  @Test
  void phase9WithProposal10sMsmSizesIsSafe() throws java.io.IOException {
    String text = java.nio.file.Files.readString(TestDesigns.path("cuzk/phase9")).replace("h_buckets 368MiB", "h_buckets 184MiB")
        .replace("h_temp 4544MiB", "h_temp 1638MiB");
    assertThat(Checker.check(TestDesigns.parse(text), "<test>", OPTS).verdict()).isEqualTo(new Verdict.Safe());
  }

  /**
   * The pre-staging cudaMallocs as the code has them (GC:696-699, GC:766-776@599522de): d_a's handler is the fallback
   * path (the guard's else), d_bc's frees d_a and then takes it, and only when both succeed does the pre-staged path
   * run; the guard stays in front.
   */
  @Test
  void thePreStagingAllocationsFallBackToThePhase8PathWhenTheyFail() {
    for (String name : List.of("phase9", "phase10", "phase10-dbc-live", "phase11", "phase12")) {
      List<Step> body = TestDesigns.shipped("cuzk/" + name).role("gpu_worker").orElseThrow().body();
      IfFree guard = (IfFree) body.stream().filter(IfFree.class::isInstance).findFirst().orElseThrow();
      assertThat(guard.then()).as(name).hasSize(1);
      Alloc da = (Alloc) guard.then().get(0);
      assertThat(da.text()).isEqualTo("alloc d_a 4GiB");
      OnOom.Handle h = (OnOom.Handle) da.onOom();
      assertThat(h.steps()).as(name + ": d_a's handler is the fallback path").isEqualTo(guard.otherwise());
      assertThat(h.success()).as(name).hasSize(1);
      Alloc dbc = (Alloc) h.success().get(0);
      assertThat(dbc.text()).isEqualTo("alloc d_bc 8GiB");
      OnOom.Handle h2 = (OnOom.Handle) dbc.onOom();
      assertThat(h2.steps().get(0).text()).isEqualTo("free d_a");
      assertThat(h2.steps().subList(1, h2.steps().size())).as(name).isEqualTo(guard.otherwise());
      assertThat(h2.success()).as(name + ": the pre-staged path").extracting(Step::text)
          .contains("kernel ntt_msm uses d_a d_bc").doesNotContain("alloc d_a 4GiB async");
      assertThat(guard.otherwise()).extracting(Step::text).contains("alloc d_a 4GiB async", "alloc d_bc 8GiB");
    }
  }

  /** Phase 8 and head discard invoke's returned error, as the later phases do: their d_temps are on oom ignore. */
  @Test
  void phase8AndHeadIgnoreTheirMsmTemporariesFailures() {
    for (String name : List.of("phase8", "head")) {
      List<Alloc> temps = TestDesigns.shipped("cuzk/" + name).role("gpu_worker").orElseThrow().body().stream()
          .filter(Alloc.class::isInstance).map(Alloc.class::cast)
          .filter(a -> a.buffer().equals("h_temp") || a.buffer().equals("tail_temp")).toList();
      assertThat(temps).as(name).hasSize(4).allMatch(a -> a.onOom() instanceof OnOom.Ignore);
    }
  }

  @Test
  void phase9AnswersTheSeedsQuestion() {
    Design d = TestDesigns.shipped("cuzk/phase9");
    CheckReport r = Checker.check(d, "<test>", OPTS.withOverlap(new OverlapQuery("b_g2_msm", "ntt_msm")));
    assertThat(r.overlap().orElseThrow().reachability()).isEqualTo(OverlapAnswer.Reachability.REACHABLE);
  }

  @Test
  void proposal9WouldHaveFailedLikePhase10() {
    CheckReport r = check("proposal9");
    assertThat(r.verdict().label()).isEqualTo("OOM");
    assertThat(r.threads()).isEqualTo(Map.of("gpu_worker", 2));
    assertThat(r.counterexample().orElseThrow().length()).isEqualTo(12);
  }

  @Test
  void headIsSafeWithTwoWorkers() {
    Design d = TestDesigns.shipped("cuzk/head").withThreads("gpu_worker", 2);
    assertThat(Checker.check(d, "<test>", OPTS).verdict()).isEqualTo(new Verdict.Safe());
  }

  /** Head as shipped (3 workers x 2 jobs, 61,492,305 states unreduced) and at 4 workers: SAFE by the reduced search. */
  @Test
  void headIsSafeWithThreeAndFourWorkersByTheReducedSearch() {
    for (int n : new int[] {3, 4}) {
      CheckReport r = Checker.check(TestDesigns.shipped("cuzk/head").withThreads("gpu_worker", n), "<test>", OPTS);
      assertThat(r.verdict()).as("%d workers", n).isEqualTo(new Verdict.Safe());
      assertThat(r.search().reduced()).as("%d workers: the reduced search's answer", n).isTrue();
      assertThat(r.search().states()).as("%d workers", n).isLessThan(200_000);
    }
  }

  /**
   * Which corpus designs make the pool choose among equally caching streams, where the reduced search falls back to the
   * plain one (docs/reduction.md): none at 2 workers; at 3, only proposal9, whose workers free equal async buffers on
   * their streams before a third allocates.
   */
  @Test
  void onlyProposal9MeetsAPoolTieAndOnlyFromThreeWorkers() {
    Explorer.Options all = new Explorer.Options(20_000_000, true, true, Optional.empty());
    for (String name : List.of("phase8", "phase9", "phase10", "phase10-dbc-live", "phase11", "phase12", "proposal9", "head")) {
      for (int n : new int[] {2, 3}) {
        if (name.equals("proposal9") && n == 3) {
          continue;
        }
        Model m = new Model(TestDesigns.shipped("cuzk/" + name).withThreads("gpu_worker", n));
        assertThat(Explorer.exploreReduced(m, "<test>", all).reduced()).as("%s at %d workers: reduced, no pool tie", name, n).isTrue();
      }
    }
    Model p3 = new Model(TestDesigns.shipped("cuzk/proposal9").withThreads("gpu_worker", 3));
    Exploration fallback = Explorer.exploreReduced(p3, "<test>", new Explorer.Options(50_000, true, true, Optional.empty()));
    assertThat(fallback.reduced()).isFalse();
  }

  /**
   * Every guard reads free memory further than the GPU's tolerance (64 MiB, docs/gpu-backend.md) from its boundary,
   * in every reachable state: so the driver's report and the model's figure always take the same branch.
   */
  @Test
  void everyGuardIsFarFromItsBoundaryInEveryReachableState() {
    long tolerance = 64 * Sizes.MIB;
    for (String name : List.of("phase9", "phase10", "phase11", "phase12")) {
      Design d = TestDesigns.shipped("cuzk/" + name).withThreads("gpu_worker", 2);
      Model m = new Model(d);
      Set<List<Long>> seen = new HashSet<>();
      ArrayDeque<long[]> queue = new ArrayDeque<>();
      long[] init = m.initial();
      m.canonicalize(init);
      queue.add(init);
      seen.add(asList(init));
      long closest = Long.MAX_VALUE;
      long[] out = new long[init.length];
      while (!queue.isEmpty()) {
        long[] s = queue.poll();
        for (int t = 0; t < m.threads(); t++) {
          if (m.nextStep(s, t).orElse(null) instanceof IfFree f) {
            closest = Math.min(closest, Math.abs(m.free(s) - f.bytes()));
          }
          if (m.step(s, t, out) != Model.MOVED) {
            continue;
          }
          long[] next = out.clone();
          m.canonicalize(next);
          if (seen.add(asList(next))) {
            queue.add(next);
          }
        }
      }
      assertThat(closest).as("%s: the closest read to a guard's boundary, over %d states", name, seen.size())
          .isGreaterThan(tolerance);
    }
  }

  private static List<Long> asList(long[] s) {
    return java.util.Arrays.stream(s).boxed().toList();
  }
}
