package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Captures of cuzk's real GPU code (curio 599522de, phase 9) under engines/cuzk's harness on an H100 at the real
 * partition size, 1 worker (gpu/NOTES.md run 77): with a 16 GiB budget the H MSM's d_temp allocation fails while
 * d_a, d_bc and the buckets are live, and the engine goes on; with 20 GiB it fits.
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
