package dev.interlock.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goal's work on temporary projects: verdicts against expectations, failures, reports, parameters, bad input. */
class DesignsCheckTest {
  /** A worker stages 12 GiB under mem_mtx but frees it after releasing it: OOM with 2 workers in 9 transitions. */
  static final String TWO_LOCK = """
      design two-lock
      vram 16GiB
      mutex mem_mtx
      mutex compute_mtx
      role gpu_worker x3 jobs 2
        cpu synthesize
        lock mem_mtx
        alloc staged 12GiB
        unlock mem_mtx
        lock compute_mtx
        alloc scratch 2GiB
        kernel ntt_msm uses staged scratch
        free scratch
        free staged
        unlock compute_mtx
        cpu b_g2_msm
        cpu epilogue
      """;

  /** One lock around the whole allocation: SAFE. */
  static final String SINGLE_LOCK = """
      design single-lock
      vram 16GiB
      mutex compute_mtx
      role prover x2 jobs 1
        cpu synthesize
        lock compute_mtx
        alloc staged 12GiB
        kernel ntt_msm uses staged
        free staged
        unlock compute_mtx
      """;

  @TempDir
  Path project;

  private final RecordingLog log = new RecordingLog();
  private final List<String> lines = log.lines;
  private final ObjectMapper json = new ObjectMapper();

  private Path designs() {
    return TestProject.designs(project);
  }

  private void design(String relative, String text) throws IOException {
    TestProject.design(project, relative, text);
  }

  private CheckSettings settings(String threads, String vram, long maxStates, boolean failOnLimit,
      List<String> includes, List<String> excludes) throws PluginInputException {
    return CheckSettings.of(project, designs(), includes, excludes, threads, vram, maxStates, failOnLimit,
        project.resolve("target/interlock"));
  }

  private CheckSettings defaults() throws PluginInputException {
    return settings(null, null, CheckSettings.DEFAULT_MAX_STATES, true, null, null);
  }

  private JsonNode read(String relative) throws IOException {
    return json.readTree(project.resolve("target/interlock").resolve(relative).toFile());
  }

  @Test
  void designsThatMeetTheirExpectationsPassAndGetReports() throws Exception {
    design("safe.design", SINGLE_LOCK);
    design("sub/two-lock.design", "# expect: OOM threads=gpu_worker:2 length=9\n" + TWO_LOCK);
    DesignsCheck.Outcome o = DesignsCheck.run(defaults(), log);
    assertThat(o.failed()).isEmpty();
    assertThat(o.met()).isEqualTo(2);
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).matches("INFO src/main/designs/safe\\.design: SAFE, met, [0-9.]+ s");
    assertThat(lines.get(1)).matches("INFO src/main/designs/sub/two-lock\\.design: OOM, met, [0-9.]+ s");
    JsonNode r = read("sub/two-lock.design.json");
    assertThat(r.get("verdict").asText()).isEqualTo("OOM");
    assertThat(r.get("length").asInt()).isEqualTo(9);
    assertThat(r.get("expected").asText()).isEqualTo("OOM threads=gpu_worker:2 length=9");
    assertThat(r.get("expect_line").asInt()).isEqualTo(1);
    assertThat(r.get("met").asBoolean()).isTrue();
    assertThat(r.get("mismatches").size()).isZero();
    assertThat(r.get("file").asText()).isEqualTo("src/main/designs/sub/two-lock.design");
    JsonNode safe = read("safe.design.json");
    assertThat(safe.get("expected").asText()).isEqualTo("SAFE");
    assertThat(safe.get("expect_line").asInt()).isZero();
    assertThat(Files.readString(project.resolve("target/interlock/sub/two-lock.design.html"))).contains("<html");
    assertThat(project.resolve("target/interlock/safe.design.html")).doesNotExist();
    JsonNode summary = read("summary.json");
    assertThat(summary.get("designs").asInt()).isEqualTo(2);
    assertThat(summary.get("met").asInt()).isEqualTo(2);
    assertThat(summary.get("failed").asInt()).isZero();
    assertThat(summary.get("results").get(1).get("html").asText()).isEqualTo("sub/two-lock.design.html");
  }

  @Test
  void anUnexpectedViolationFailsWithItsVerdictMismatchAndTrace() throws Exception {
    design("safe.design", SINGLE_LOCK);
    design("two-lock.design", TWO_LOCK);
    DesignsCheck.Outcome o = DesignsCheck.run(defaults(), log);
    assertThat(o.failed()).extracting(DesignsCheck.DesignOutcome::file).containsExactly("two-lock.design");
    assertThat(lines).anyMatch(l -> l.startsWith("ERROR src/main/designs/two-lock.design: OOM, NOT MET (expected SAFE)"));
    String message = o.failureMessage();
    assertThat(message).startsWith("1 of 2 designs did not meet their expectation:")
        .contains("src/main/designs/two-lock.design: OOM, expected SAFE (no expect line)")
        .contains("- expected verdict SAFE, got OOM")
        .contains("counterexample (9 transitions")
        .contains("alloc staged");
    assertThat(message).doesNotContain("safe.design");
    JsonNode r = read("two-lock.design.json");
    assertThat(r.get("met").asBoolean()).isFalse();
    assertThat(r.get("mismatches").get(0).asText()).isEqualTo("expected verdict SAFE, got OOM");
    assertThat(read("summary.json").get("failed").asInt()).isEqualTo(1);
  }

  /** Pre-staging whose failure is ignored: SWALLOWED_OOM with 2 workers; handled by a smaller buffer: SAFE. */
  static final String IGNORED = """
      design ignored
      vram 16GiB
      role gpu_worker x2 jobs 1
        alloc staged 10GiB
        on oom ignore
        kernel ntt uses staged
        free staged
      """;

  @Test
  void swallowedFailuresAreReportedAndExpectedByName() throws Exception {
    design("ignored.design", "# expect: SWALLOWED_OOM threads=gpu_worker:2 length=2\n" + IGNORED);
    design("handled.design", "# expect: SAFE\n" + IGNORED.replace("on oom ignore", "on oom\n  alloc staged 6GiB\n  end"));
    design("unexpected.design", IGNORED);
    DesignsCheck.Outcome o = DesignsCheck.run(defaults(), log);
    assertThat(o.failed()).extracting(DesignsCheck.DesignOutcome::file).containsExactly("unexpected.design");
    assertThat(o.met()).isEqualTo(2);
    JsonNode r = read("ignored.design.json");
    assertThat(r.get("verdict").asText()).isEqualTo("SWALLOWED_OOM");
    assertThat(r.get("met").asBoolean()).isTrue();
    assertThat(read("handled.design.json").get("verdict").asText()).isEqualTo("SAFE");
    assertThat(o.failureMessage()).contains("- expected verdict SAFE, got SWALLOWED_OOM")
        .contains("on oom ignore: the job goes on without staged, and these steps run without it:");
    assertThat(Files.readString(project.resolve("target/interlock/ignored.design.html"))).contains("<html");
  }

  @Test
  void aWrongExpectedLengthIsAMismatchToo() throws Exception {
    design("two-lock.design", "# expect: OOM length=8\n" + TWO_LOCK);
    DesignsCheck.Outcome o = DesignsCheck.run(defaults(), log);
    assertThat(o.failureMessage()).contains("expected a counterexample of 8 transitions, got 9");
  }

  @Test
  void aMalformedExpectLineIsAPositionedError() throws Exception {
    design("ok.design", SINGLE_LOCK);
    design("bad.design", "# expect: OMM\n" + TWO_LOCK);
    assertThatThrownBy(() -> DesignsCheck.run(defaults(), log)).isInstanceOf(PluginInputException.class)
        .hasMessageStartingWith("src/main/designs/bad.design:1:11: unknown verdict 'OMM'");
    assertThat(lines).isEmpty();
  }

  @Test
  void aMalformedDesignIsAPositionedError() throws Exception {
    design("bad.design", SINGLE_LOCK.replace("alloc staged 12GiB", "alloc staged 12XB"));
    assertThatThrownBy(() -> DesignsCheck.run(defaults(), log)).isInstanceOf(PluginInputException.class)
        .hasMessageMatching("src/main/designs/bad\\.design:7:\\d+: .*");
  }

  @Test
  void noDesignFilesOrNoDirectoryFails() throws Exception {
    assertThatThrownBy(() -> DesignsCheck.run(defaults(), log)).isInstanceOf(PluginInputException.class)
        .hasMessageContaining("no design directory src/main/designs");
    design("notes.txt", "not a design");
    assertThatThrownBy(() -> DesignsCheck.run(defaults(), log)).isInstanceOf(PluginInputException.class)
        .hasMessageContaining("no design files in src/main/designs match includes [**/*.design]");
  }

  @Test
  void includesAndExcludesSelectTheFiles() throws Exception {
    design("a.design", SINGLE_LOCK);
    design("wip/b.design", TWO_LOCK);
    design("c.txt", SINGLE_LOCK);
    DesignsCheck.Outcome o = DesignsCheck.run(settings(null, null, 1000, true, List.of("**/*.design", "*.txt"),
        List.of("wip/")), log);
    assertThat(o.designs()).extracting(DesignsCheck.DesignOutcome::file).containsExactly("a.design", "c.txt");
    assertThat(o.failed()).isEmpty();
  }

  @Test
  void threadOverridesApplyToTheDesignsThatHaveTheRole() throws Exception {
    design("safe.design", SINGLE_LOCK);
    design("two-lock.design", TWO_LOCK);
    DesignsCheck.Outcome o = DesignsCheck.run(settings("gpu_worker:1", null, 1_000_000, true, null, null), log);
    assertThat(o.failed()).isEmpty();
    assertThat(o.designs().get(1).result().design().role("gpu_worker").get().threads()).isEqualTo(1);
    assertThat(o.designs().get(0).result().design().role("prover").get().threads()).isEqualTo(2);
    assertThatThrownBy(() -> DesignsCheck.run(settings("gpu_wroker:1", null, 1000, true, null, null), log))
        .isInstanceOf(PluginInputException.class)
        .hasMessage("interlock: threads: no design has a role 'gpu_wroker' (roles: prover, gpu_worker)");
  }

  @Test
  void aVramOverrideAppliesToEveryDesign() throws Exception {
    design("two-lock.design", TWO_LOCK);
    DesignsCheck.Outcome o = DesignsCheck.run(settings(null, "48GiB", 1_000_000, true, null, null), log);
    assertThat(o.failed()).isEmpty();
    assertThat(read("two-lock.design.json").get("verdict").asText()).isEqualTo("SAFE");
  }

  @Test
  void aLimitFailsUnlessFailOnLimitIsOff() throws Exception {
    design("two-lock.design", TWO_LOCK);
    assertThat(DesignsCheck.run(settings(null, null, 3, true, null, null), log).failed()).hasSize(1);
    lines.clear();
    DesignsCheck.Outcome o = DesignsCheck.run(settings(null, null, 3, false, null, null), log);
    assertThat(o.failed()).isEmpty();
    assertThat(o.limitWarnings()).isEqualTo(1);
    assertThat(lines.get(0)).startsWith("WARN src/main/designs/two-lock.design: LIMIT, NOT MET (expected SAFE)");
    assertThat(read("two-lock.design.json").get("limit").asText()).isEqualTo("max_states");
  }

  @Test
  void anEarlierRunsReportsAreRemovedAndNothingIsWrittenOutsideTheOutputDirectory() throws Exception {
    design("safe.design", SINGLE_LOCK);
    Path stale = project.resolve("target/interlock/gone.design.html");
    Files.createDirectories(stale.getParent());
    Files.writeString(stale, "old");
    DesignsCheck.run(defaults(), log);
    assertThat(stale).doesNotExist();
    try (var walk = Files.walk(project)) {
      assertThat(walk.filter(Files::isRegularFile).map(p -> project.relativize(p).toString().replace('\\', '/')))
          .containsExactlyInAnyOrder("src/main/designs/safe.design", "target/interlock/safe.design.json",
              "target/interlock/summary.json");
    }
  }

  @Test
  void badParametersAreOneLineErrors() {
    assertThatThrownBy(() -> CheckSettings.threads("gpu_worker=2")).hasMessage(
        "interlock: threads: 'gpu_worker=2' is not ROLE:N (e.g. gpu_worker:2)");
    assertThatThrownBy(() -> CheckSettings.threads("a:0")).hasMessageContaining("needs a whole number from 1");
    assertThatThrownBy(() -> CheckSettings.threads("a:1,a:2")).hasMessage("interlock: threads: role a named twice");
    assertThatThrownBy(() -> CheckSettings.vram("lots")).hasMessageStartingWith("interlock: vram: ");
    assertThatThrownBy(() -> settings(null, null, 0, true, null, null)).hasMessageContaining("maxStates");
  }
}
