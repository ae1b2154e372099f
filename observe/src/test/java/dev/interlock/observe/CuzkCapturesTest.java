package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Captures of cuzk's real GPU code under engines/cuzk's harness on an H100 at the real partition size. Phase 9
 * (curio 599522de), 1 worker (gpu/NOTES.md run 77): with a 16 GiB budget the H MSM's d_temp allocation fails while
 * d_a, d_bc and the buckets are live, and the engine goes on; with 20 GiB it fits. Phase 9 and phase 8 (2fac031f)
 * with 2 workers at 16 GiB (run 78), and head (fd51df1a) with 2 workers at 16 GiB (run 79).
 */
class CuzkCapturesTest {
  private static final String DIR = "observe/src/test/resources/cuzk/";
  private static final Path PHASE9 = Path.of("designs/cuzk/phase9.design");

  private static Mapping map() throws Exception {
    return Mapping.parse("engines/cuzk/cuzk.map", Files.readString(Path.of("engines/cuzk/cuzk.map")));
  }

  @Test
  void phase9At16GiBConformsWithTheSwallowedHMsmAllocationWhereTheModelHasIt() throws Exception {
    String text = Files.readString(PHASE9);
    Design d = DesignParser.parse(PHASE9.toString(), text);
    Capture c = CaptureFormat.read(Path.of(DIR + "phase9-16gib.capture"));
    Validation v = Validator.validate(d, PHASE9.toString(), text, c, map());
    System.out.println("[interlock] cuzk phase 9, 16 GiB: " + v.summary());
    assertThat(v).as(v.summary()).isInstanceOf(Validation.Conforms.class);
    // the pre-staged path's `alloc h_temp 4544MiB async` / `on oom ignore`, the third of the design's four
    int line = 0;
    int seen = 0;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length && seen < 3; i++) {
      if (lines[i].strip().equals("alloc h_temp 4544MiB async")) {
        seen++;
        line = i + 1;
      }
    }
    assertThat(((Validation.Conforms) v).failures()).singleElement().asString()
        .contains("phase9-16gib.capture:908", "'alloc h_temp 4544MiB async' (designs/cuzk/phase9.design:" + line + ")",
            "ignored (on oom ignore)", "ran without h_temp: 'kernel ntt_msm uses d_a h_buckets h_temp'");
    assertThat(Files.readString(Path.of(DIR + "phase9-16gib.capture")).lines().skip(907).findFirst().orElseThrow())
        .as("the driver's out-of-memory for the 4544 MiB temporary").endsWith("bytes=4764729344 async=1 stream=0x55685c932830 rc=2 api=cuMemAllocAsync");
  }

  @Test
  void phase9At20GiBConformsWithNoFailure() throws Exception {
    String text = Files.readString(PHASE9).replace("\nvram 16GiB\n", "\nvram 20GiB\n");
    Design d = DesignParser.parse(PHASE9.toString(), text);
    Capture c = CaptureFormat.read(Path.of(DIR + "phase9-20gib.capture"));
    Validation v = Validator.validate(d, PHASE9.toString(), text, c, map());
    System.out.println("[interlock] cuzk phase 9, 20 GiB: " + v.summary());
    assertThat(v).as(v.summary()).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) v).failures()).isEmpty();
    // the same run against the 16 GiB card's design: the model cannot fit the temporary that the run allocated
    Validation at16 = Validator.validate(DesignParser.parse(PHASE9.toString(), Files.readString(PHASE9)), PHASE9.toString(),
        Files.readString(PHASE9), c, map());
    assertThat(at16).isInstanceOf(Validation.Diverges.class);
    assertThat(at16.summary()).contains("succeeded, but the design runs out of memory at 'alloc h_temp 4544MiB async'");
  }

  @Test
  void phase9WithTwoWorkersConformsWithEachWorkersHMsmAllocationIgnored() throws Exception {
    Validation v = validate(PHASE9, "phase9-16gib-2workers.capture");
    assertThat(v).as(v.summary()).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) v).failures()).hasSize(2)
        .anySatisfy(f -> assertThat(f).asString().contains("gpu_worker#0 'alloc h_temp 4544MiB async'", "ignored"))
        .anySatisfy(f -> assertThat(f).asString().contains("gpu_worker#1 'alloc h_temp 4544MiB async'", "ignored"));
    assertInferredChecksAsTheCorpus("phase9-16gib-2workers.capture", PHASE9, "SWALLOWED_OOM");
  }

  @Test
  void phase8WithTwoWorkersConformsAndItsInferredDesignIsSafeAsTheCorpus() throws Exception {
    Path phase8 = Path.of("designs/cuzk/phase8.design");
    // written before the capture library held a child until its thread_start record was out: the per-GPU thread's
    // first allocations come before that record in the file, and fold into the worker all the same
    List<String> lines = Files.readAllLines(Path.of(DIR + "phase8-16gib-2workers.capture"));
    assertThat(lines.get(5291)).startsWith("358789812540 1301 alloc ").contains("bytes=4294967296");
    assertThat(lines.get(5294)).isEqualTo("358786923168 1293 thread_start child=1301 rc=0");
    Validation v = validate(phase8, "phase8-16gib-2workers.capture");
    assertThat(v).as(v.summary()).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) v).failures()).isEmpty();
    assertInferredChecksAsTheCorpus("phase8-16gib-2workers.capture", phase8, "SAFE");
  }

  @Test
  void headWithTwoWorkersConformsAndItsInferredDesignDeclaresTheOnceAllocatedDaAndIsSafe() throws Exception {
    Path head = Path.of("designs/cuzk/head.design");
    Mapping headMap = Mapping.read(Path.of("engines/cuzk/head.map"));
    Validation v = validate(head, "head-16gib-2workers.capture", headMap);
    assertThat(v).as(v.summary()).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) v).failures()).isEmpty();
    // without the map's 'device d_a': the first job's 4 GiB cudaMalloc is an allocation the design does not have
    assertThat(validate(head, "head-16gib-2workers.capture", map()).summary())
        .contains("cuMemAlloc_v2(4GiB)", "the design allocates no buffer of 4GiB");
    Capture c = CaptureFormat.read(Path.of(DIR + "head-16gib-2workers.capture"));
    String text = Inferrer.infer(c, headMap, Optional.of(Sizes.parseOrThrow("16GiB")));
    assertThat(text).contains("\nbuffer d_a 4GiB\n");
    Design d = DesignParser.parse("inferred.design", text);
    assertThat(Validator.validate(d, "inferred.design", text, c, headMap)).isInstanceOf(Validation.Conforms.class);
    CheckReport r = Checker.check(d, "inferred.design", Checker.Options.defaults(2_000_000));
    // the same verdict as head's own, at its 3 workers (a partial-order reduced search of 25,672 states)
    CheckReport own = Checker.check(DesignParser.parse(head.toString(), Files.readString(head)), head.toString(),
        Checker.Options.defaults(2_000_000));
    assertThat(own.verdict().label()).isEqualTo("SAFE");
    assertThat(r.verdict().label()).isEqualTo("SAFE");
  }

  private static Validation validate(Path design, String capture) throws Exception {
    return validate(design, capture, map());
  }

  private static Validation validate(Path design, String capture, Mapping mapping) throws Exception {
    String text = Files.readString(design);
    Validation v = Validator.validate(DesignParser.parse(design.toString(), text), design.toString(), text,
        CaptureFormat.read(Path.of(DIR + capture)), mapping);
    System.out.println("[interlock] cuzk " + capture + ": " + v.summary());
    return v;
  }

  /** infer on the capture gives a design that conforms to it and checks to the corpus design's verdict. */
  private static void assertInferredChecksAsTheCorpus(String capture, Path design, String verdict) throws Exception {
    Capture c = CaptureFormat.read(Path.of(DIR + capture));
    String text = Inferrer.infer(c, map(), Optional.of(Sizes.parseOrThrow("16GiB")));
    Design d = DesignParser.parse("inferred.design", text);
    assertThat(Validator.validate(d, "inferred.design", text, c, map())).isInstanceOf(Validation.Conforms.class);
    CheckReport r = Checker.check(d, "inferred.design", Checker.Options.defaults(2_000_000));
    CheckReport corpus = Checker.check(DesignParser.parse(design.toString(), Files.readString(design)),
        design.toString(), Checker.Options.defaults(2_000_000));
    System.out.println("[interlock] cuzk " + capture + " inferred: " + r.verdict().label() + "; corpus: "
        + corpus.verdict().label());
    assertThat(r.verdict().label()).isEqualTo(verdict).isEqualTo(corpus.verdict().label());
    if (!verdict.equals("SAFE")) {
      assertThat(r.primary().orElseThrow().threads()).isEqualTo(corpus.primary().orElseThrow().threads());
    }
  }

  @Test
  void theDesignInferredFromThe16GiBRunChecksToTheCorpusVerdict() throws Exception {
    Capture c = CaptureFormat.read(Path.of(DIR + "phase9-16gib.capture"));
    String text = Inferrer.infer(c, map(), Optional.of(Sizes.parseOrThrow("16GiB")));
    Design d = DesignParser.parse("inferred.design", text);
    assertThat(Validator.validate(d, "inferred.design", text, c, map())).isInstanceOf(Validation.Conforms.class);
    CheckReport r = Checker.check(d, "inferred.design", Checker.Options.defaults(2_000_000));
    CheckReport corpus = Checker.check(DesignParser.parse(PHASE9.toString(), Files.readString(PHASE9)), PHASE9.toString(),
        Checker.Options.defaults(2_000_000));
    System.out.println("[interlock] cuzk phase 9 inferred: " + r.verdict().label() + "; corpus: " + corpus.verdict().label());
    assertThat(r.verdict().label()).isEqualTo("SWALLOWED_OOM").isEqualTo(corpus.verdict().label());
    assertThat(r.primary().orElseThrow().threads()).isEqualTo(Map.of("gpu_worker", 1))
        .isEqualTo(corpus.primary().orElseThrow().threads());
  }
}
