package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** infer merges jobs that took different paths (a memory reading, a failed allocation) into one body, which validates. */
class InferBranchesTest {
  private static final long GIB = 1L << 30;

  /** A capture written record by record: two named workers, compute_mtx named, the device 16 GiB and empty. */
  private static final class Run {
    final List<String> lines = new ArrayList<>();
    long ns = 1000;
    long ptr = 0x7f0000000000L;

    Run() {
      lines.add("# interlock capture v1");
      lines.add("# pid=1 program=/synthetic clock=CLOCK_MONOTONIC start_ns=0");
      rec(1, "meminfo free=" + 16 * GIB + " total=" + 16 * GIB + " rc=0");
      rec(1, "name obj=mutex@0x10 name=compute_mtx");
      rec(10, "thread_name name=gpu_worker#0");
      rec(11, "thread_name name=gpu_worker#1");
    }

    Run rec(long tid, String what) {
      lines.add((ns += 10) + " " + tid + " " + what);
      return this;
    }

    Run push(long tid, String name) {
      return rec(tid, "range_push name=" + name.replace(" ", "%20") + " domain=-");
    }

    Run pop(long tid) {
      return rec(tid, "range_pop domain=-");
    }

    Run cpu(long tid, String name) {
      return push(tid, name).pop(tid);
    }

    Run lock(long tid) {
      return rec(tid, "lock obj=mutex@0x10 rc=0");
    }

    Run unlock(long tid) {
      return rec(tid, "unlock obj=mutex@0x10");
    }

    /** An allocation in a range {@code alloc NAME}: its pointer, or 0 when it ran out of memory. */
    long alloc(long tid, String name, long bytes, boolean ok) {
      long p = ok ? (ptr += 16 * GIB) : 0;
      push(tid, "alloc " + name);
      rec(tid, "alloc ptr=0x" + Long.toHexString(p) + " bytes=" + bytes + " async=0 stream=- rc=" + (ok ? 0 : 2) + " api=cuMemAlloc_v2");
      pop(tid);
      return p;
    }

    Run free(long tid, long p) {
      return rec(tid, "free ptr=0x" + Long.toHexString(p) + " async=0 stream=- rc=0 api=cuMemFree_v2");
    }

    Run kernel(long tid) {
      push(tid, "ntt_msm");
      rec(tid, "launch kernel=ntt_msm stream=0x1 corr=1 rc=0");
      rec(tid, "sync_stream stream=0x1 rc=0");
      return pop(tid);
    }

    /** The GPU part of a job that holds {@code staged}: under compute_mtx, scratch, the kernel and both frees. */
    Run compute(long tid, long staged, boolean freeStaged) {
      lock(tid);
      long s = alloc(tid, "scratch", 2 * GIB, true);
      kernel(tid);
      free(tid, s);
      if (freeStaged) {
        free(tid, staged);
      }
      return unlock(tid);
    }

    Capture capture() throws CaptureFormatException {
      return CaptureFormat.parse("run.capture", String.join("\n", lines) + "\n");
    }
  }

  private record Inferred(String text, Design design, Validation validation, String verdict) {}

  private static Inferred infer(Run r) throws Exception {
    Capture c = r.capture();
    String text = Inferrer.infer(c, Mapping.NONE, Optional.empty());
    Design d = DesignParser.parse("inferred.design", text);
    Validation v = Validator.validate(d, "inferred.design", text, c, Mapping.NONE);
    String verdict = Checker.check(d, "inferred.design", Checker.Options.defaults(1_000_000)).verdict().label();
    System.out.println("[interlock] " + v.summary() + (v instanceof Validation.Conforms k ? "\n  " + String.join("\n  ", k.failures()) : "")
        + "\ncheck " + verdict + "\n" + text);
    return new Inferred(text, d, v, verdict);
  }

  /** A pre-stage that fails while the other worker's staged is live, handled by staging under compute_mtx. */
  /**
   * A job cut short by the run's end inside its handler, on a branch where no job's allocation succeeded: the handler
   * keeps the free its completion added, since no step after it frees the buffer. The capture is an engine run of
   * InferProperties (3 workers, an {@code if free} and a handled failure) whose inferred design leaked that buffer.
   */
  @Test
  void aJobCutShortInItsHandlerWhereNoJobSucceededFreesWhatTheHandlerAllocated() throws Exception {
    java.nio.file.Path file = java.nio.file.Path.of("observe/src/test/resources/infer/cut-in-handler.capture");
    Capture c = CaptureFormat.read(file);
    String text = Inferrer.infer(c, Mapping.NONE, Optional.empty());
    Design d = DesignParser.parse("inferred.design", text);
    assertThat(text).contains("  free buf4  # not observed: the run ended inside this job");
    assertThat(Validator.validate(d, "inferred.design", text, c, Mapping.NONE)).as(text).isInstanceOf(Validation.Conforms.class);
  }

  @Test
  void failedAllocationFollowedByOtherStepsThenTheSuccessPathIsAHandler() throws Exception {
    Run r = new Run();
    r.push(10, "job").cpu(10, "synthesize");
    long a = r.alloc(10, "staged", 12 * GIB, true);
    r.push(11, "job").cpu(11, "synthesize");
    r.alloc(11, "staged", 12 * GIB, false);
    r.compute(10, a, true).cpu(10, "epilogue").pop(10);
    r.lock(11);
    long b = r.alloc(11, "staged", 12 * GIB, true);
    r.unlock(11);
    r.compute(11, b, true).cpu(11, "epilogue").pop(11);
    Inferred in = infer(r);
    assertThat(in.text()).contains("  alloc staged 12GiB  # run.capture:", "\n  on oom  #", "\n  end\n");
    assertThat(in.text()).doesNotContain("ignore", "choose");
    assertThat(in.design().roles()).hasSize(1);
    assertThat(in.validation()).isInstanceOfSatisfying(Validation.Conforms.class, c -> {
      assertThat(c.failures()).hasSize(1);
      assertThat(c.failures().get(0)).contains("handled (on oom)").startsWith("run.capture:");
      assertThat(c.oomLine()).isZero();
    });
    // the handler's own allocation is not handled: with a pre-stage racing it, it can fail
    assertThat(in.verdict()).isEqualTo("OOM");
  }

  /**
   * The test engine's prestage-fallback as it runs: a pre-stage fails and the handler's own allocation fails too (the
   * other worker's staged is still live), after which the job only lets compute_mtx go: that job failed there. The
   * inferred handler holds what was seen of it, and the run conforms up to that second failure, where the model's
   * unhandled allocation runs out of memory too.
   */
  @Test
  void aHandlerWhoseOwnAllocationFailsEndsItsJobThereAndTheRunConformsUpToIt() throws Exception {
    Run r = new Run();
    r.push(10, "job").cpu(10, "synthesize");
    long a = r.alloc(10, "staged", 12 * GIB, true);
    r.push(11, "job").cpu(11, "synthesize");
    r.alloc(11, "staged", 12 * GIB, false);
    r.lock(11);
    r.alloc(11, "staged", 12 * GIB, false);
    int failedLine = r.lines.size() - 1; // the allocation, before its range's pop (lines count from 1)
    r.unlock(11).pop(11);
    r.compute(10, a, true).cpu(10, "epilogue").pop(10);
    r.push(11, "job").cpu(11, "synthesize");
    long b = r.alloc(11, "staged", 12 * GIB, true);
    r.compute(11, b, true).cpu(11, "epilogue").pop(11);
    Inferred in = infer(r);
    assertThat(in.text()).contains("\n  on oom  #", "\n  lock compute_mtx  # run.capture:", "\n  end\n").doesNotContain("choose");
    assertThat(in.validation()).isInstanceOfSatisfying(Validation.Conforms.class, c -> {
      assertThat(c.oomLine()).isEqualTo(failedLine);
      assertThat(c.failures()).singleElement().asString().contains("handled (on oom)");
    });
    assertThat(in.verdict()).isEqualTo("OOM");
  }

  /** A failed allocation after which the job goes on as if it had the buffer (no free of it): on oom ignore. */
  @Test
  void failedAllocationFollowedByTheSuccessPathWithoutItsFreeIsIgnored() throws Exception {
    Run r = new Run();
    r.push(10, "job").cpu(10, "synthesize");
    long a = r.alloc(10, "staged", 12 * GIB, true);
    r.push(11, "job").cpu(11, "synthesize");
    r.alloc(11, "staged", 12 * GIB, false);
    r.compute(10, a, true).cpu(10, "epilogue").pop(10);
    r.compute(11, 0, false).cpu(11, "epilogue").pop(11);
    Inferred in = infer(r);
    assertThat(in.text()).contains("\n  on oom ignore  #");
    assertThat(in.validation()).isInstanceOfSatisfying(Validation.Conforms.class, c -> {
      assertThat(c.failures()).hasSize(1);
      assertThat(c.failures().get(0)).contains("ignored (on oom ignore)", "ran without staged: 'free staged'", "frees nothing");
    });
    assertThat(in.verdict()).isEqualTo("SWALLOWED_OOM");
  }

  /** Jobs that read different free sizes and then took different paths: if free, its threshold between the two. */
  @Test
  void pathsAfterAMemoryReadingThatTellsThemApartAreAnIfFree() throws Exception {
    Run r = new Run();
    r.push(10, "job").cpu(10, "synthesize");
    r.push(10, "if free").rec(10, "meminfo free=" + 16 * GIB + " total=" + 16 * GIB + " rc=0").pop(10);
    long a = r.alloc(10, "staged", 12 * GIB, true);
    r.push(11, "job").cpu(11, "synthesize");
    r.push(11, "if free").rec(11, "meminfo free=" + 4 * GIB + " total=" + 16 * GIB + " rc=0").pop(11);
    long small = r.alloc(11, "small", GIB, true);
    r.free(11, small).cpu(11, "epilogue").pop(11);
    r.compute(10, a, true).cpu(10, "epilogue").pop(10);
    Inferred in = infer(r);
    assertThat(in.text()).contains("\n  if free >= 10GiB  #", "\n  else\n", "\n  end\n").doesNotContain("if_free", "choose");
    assertThat(in.validation()).isInstanceOf(Validation.Conforms.class);
    // the check and the allocation are not under one lock: both workers can read 16 GiB free, then both stage
    assertThat(in.verdict()).isEqualTo("OOM");
  }

  /** Jobs that part where nothing observed decides: choose, with a warning that names the capture lines. */
  @Test
  void pathsThatNothingDecidesAreAChooseWithAWarning() throws Exception {
    Run r = new Run();
    r.push(10, "job").cpu(10, "synthesize").cpu(10, "epilogue").pop(10);
    r.push(11, "job").cpu(11, "synthesize").cpu(11, "b_g2_msm").cpu(11, "epilogue").pop(11);
    Capture c = r.capture();
    Inferrer.Result res = Inferrer.inferWithWarnings(c, Mapping.NONE, Optional.of(16 * GIB));
    assertThat(res.text()).contains("\n  choose  #", "\n  or\n", "cpu b_g2_msm");
    assertThat(res.warnings()).singleElement().asString().contains("run.capture:", "choose");
    Design d = DesignParser.parse("inferred.design", res.text());
    assertThat(Validator.validate(d, "inferred.design", res.text(), c, Mapping.NONE)).isInstanceOf(Validation.Conforms.class);
  }
}
