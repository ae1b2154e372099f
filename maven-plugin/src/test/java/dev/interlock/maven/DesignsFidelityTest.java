package dev.interlock.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.fidelity.FidelityOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fidelity goal's work on temporary projects: agreement, a disagreement failing the build, report, bad input. */
class DesignsFidelityTest {
  @TempDir
  Path project;

  private final RecordingLog log = new RecordingLog();
  private final List<String> lines = log.lines;

  private Path designs() {
    return TestProject.designs(project);
  }

  private void design(String relative, String text) throws IOException {
    TestProject.design(project, relative, text);
  }

  private FidelitySettings settings(int runs, long maxStates) throws PluginInputException {
    return FidelitySettings.of(project, designs(), null, null, runs, FidelityOptions.DEFAULT_SEED,
        FidelityOptions.DEFAULT_JITTER_MICROS, maxStates, project.resolve("target/interlock-fidelity"));
  }

  private JsonNode summary() throws IOException {
    return new ObjectMapper().readTree(project.resolve("target/interlock-fidelity/summary.json").toFile());
  }

  @Test
  void designsWhoseDeviceAgreesWithTheModelPassAndGetAReport() throws Exception {
    design("safe.design", DesignsCheckTest.SINGLE_LOCK);
    design("sub/two-lock.design", DesignsCheckTest.TWO_LOCK);
    DesignsFidelity.Outcome o = DesignsFidelity.run(settings(2, FidelityOptions.DEFAULT_MAX_STATES), log);
    assertThat(o.disagreeing()).isEmpty();
    assertThat(o.failureMessage()).isEmpty();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo("INFO fidelity on the simulated device: 2 designs, 2 free runs per SAFE design"
        + " (jitter seed 1, up to 200 us)");
    assertThat(lines.get(1)).matches(
        "INFO src/main/designs/safe\\.design: model SAFE, device 2/2 runs complete, nothing live, agree, [0-9.]+ s");
    assertThat(lines.get(2)).matches(
        "INFO src/main/designs/sub/two-lock\\.design: model OOM at 9, device OOM at 9, agree, [0-9.]+ s");
    assertThat(lines.get(3))
        .isEqualTo("INFO 2 designs: 2 agree, 0 disagree; report in target/interlock-fidelity/summary.json");
    JsonNode s = summary();
    assertThat(s.get("device").asText()).isEqualTo("simulated");
    assertThat(s.get("runs").asInt()).isEqualTo(2);
    assertThat(s.get("designs").asInt()).isEqualTo(2);
    assertThat(s.get("agree").asInt()).isEqualTo(2);
    assertThat(s.get("disagree").asInt()).isZero();
    JsonNode twoLock = s.get("results").get(1);
    assertThat(twoLock.get("file").asText()).isEqualTo("src/main/designs/sub/two-lock.design");
    assertThat(twoLock.get("verdict").asText()).isEqualTo("OOM");
    assertThat(twoLock.get("model").asText()).isEqualTo("OOM at 9");
    assertThat(twoLock.get("device").asText()).isEqualTo("OOM at 9");
    assertThat(twoLock.get("agrees").asBoolean()).isTrue();
  }

  @Test
  void aDesignTheModelDoesNotDecideDisagreesAndFailsTheBuild() throws Exception {
    design("safe.design", DesignsCheckTest.SINGLE_LOCK);
    DesignsFidelity.Outcome o = DesignsFidelity.run(settings(1, 5), log);
    assertThat(o.disagreeing()).hasSize(1);
    assertThat(lines.get(1)).startsWith("ERROR src/main/designs/safe.design: model LIMIT, device not compared: the"
        + " model has no verdict, DISAGREE");
    assertThat(o.failureMessage()).startsWith("1 of 1 design disagrees with the model:")
        .contains("src/main/designs/safe.design").contains("  model  LIMIT")
        .contains("  device not compared: the model has no verdict");
    assertThat(summary().get("disagree").asInt()).isEqualTo(1);
  }

  @Test
  void badInputFailsBeforeAnythingRuns() throws Exception {
    assertThatThrownBy(() -> DesignsFidelity.run(settings(1, 5), log)).isInstanceOf(PluginInputException.class)
        .hasMessageContaining("no design directory src/main/designs");
    design("bad.design", "design x\nvram 16GiB\nrole w x1 jobs 1\n  spawn nobody\n");
    design("safe.design", DesignsCheckTest.SINGLE_LOCK);
    assertThatThrownBy(() -> DesignsFidelity.run(settings(1, 5), log)).isInstanceOf(PluginInputException.class)
        .hasMessageStartingWith("src/main/designs/bad.design:4:");
    assertThat(lines).isEmpty();
    assertThatThrownBy(() -> settings(0, 5)).isInstanceOf(PluginInputException.class)
        .hasMessage("interlock: runs must be positive, got 0");
    assertThatThrownBy(() -> settings(1, 0)).hasMessage("interlock: maxStates must be positive, got 0");
    assertThatThrownBy(() -> FidelitySettings.of(project, designs(), List.of(" "), null, 1, 1, 0, 5, project))
        .hasMessage("interlock: includes and excludes must not hold an empty pattern");
  }
}
