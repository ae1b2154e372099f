package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Steps;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The H100 captures of every test engine mode (gpu/NOTES.md run 76; capture/gpu-oom-runs.sh: 3 workers x 10 jobs, a
 * 16 GiB budget, seed 1): the design inferred from each, main left out, conforms to its capture and checks to the
 * mode's verdict; prestage-fallback's 29 failed pre-stagings are one handler, bug-every-N's two paths a choose.
 */
class H100CapturesTest {
  private static final String DIR = "observe/src/test/resources/h100/";

  @ParameterizedTest(name = "{0}: {1} with {2} workers")
  @CsvSource({
      "two-lock, OOM, 2",
      "bug, OOM, 2",
      "prestage-fallback, OOM, 2",
      "single-lock, SAFE, 0",
      "phase9-guarded, SAFE, 0",
      "reservation, SAFE, 0"})
  void theInferredDesignConformsAndChecksToTheModesVerdict(String mode, String verdict, int workers) throws Exception {
    Capture c = CaptureFormat.read(Path.of(DIR + mode + ".capture"));
    Mapping main = Mapping.parse("test.map", "ignore thread main\n");
    String text = Inferrer.infer(c, main, Optional.of(Sizes.parseOrThrow("16GiB")));
    Design d = DesignParser.parse("inferred.design", text);
    Validation v = Validator.validate(d, "inferred.design", text, c, main);
    CheckReport r = Checker.check(d, "inferred.design", Checker.Options.defaults(2_000_000));
    System.out.println("[interlock] H100 " + mode + ": validate " + v.summary() + "; check " + r.verdict().label());
    assertThat(v).as(mode + ": " + v.summary()).isInstanceOf(Validation.Conforms.class);
    assertThat(d.roles()).as(mode + ": one role of interchangeable workers").hasSize(1);
    assertThat(d.roles().get(0).threads()).isEqualTo(3);
    assertThat(r.verdict().label()).as(mode).isEqualTo(verdict);
    if (workers > 0) {
      assertThat(r.primary().orElseThrow().threads()).isEqualTo(Map.of("gpu_worker", workers));
    }
    if (mode.equals("prestage-fallback")) {
      assertThat(Steps.flatten(d.roles().get(0).body())).as("the pre-stage's failures are one handled alloc")
          .filteredOn(s -> s instanceof Alloc a && a.onOom() instanceof OnOom.Handle).hasSize(1);
      assertThat(((Validation.Conforms) v).failures()).as("the run's failed pre-stagings, each handled").hasSize(29);
    }
    if (mode.equals("bug")) {
      assertThat(text).contains("\n  choose  #", "\n  or\n");
    }
  }
}
