package dev.interlock.junit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs test classes that use {@code @DesignTest} over the designs of src/test/designtest/ (some wrong on purpose)
 * with the JUnit Platform test kit, and checks which invocations pass and how the others fail.
 */
class DesignTestTest {
  private static final String DIR = "junit/src/test/designtest/";

  @BeforeAll
  static void runsFromTheRepositoryRoot() {
    assertThat(Path.of(DIR)).as("the tests of this repository run from its root").isDirectory();
  }

  /** Each mixed/ design; the ones that met their expectation are recorded. */
  static final class Mixed {
    static final List<DesignFile> MET = new CopyOnWriteArrayList<>();

    @DesignTest(DIR + "mixed")
    void designs(DesignFile file) {
      MET.add(file);
    }
  }

  static final class MixedWithoutTheWrongOne {
    @DesignTest(value = DIR + "mixed", excludes = "wrong.design")
    void designs() {}
  }

  static final class OnlyNested {
    @DesignTest(value = DIR + "mixed", includes = "nested/*.design")
    void designs() {}
  }

  static final class Malformed {
    @DesignTest(DIR + "malformed")
    void designs() {}
  }

  static final class NoDesigns {
    @DesignTest(DIR + "none")
    void designs() {}
  }

  static final class Typo {
    @DesignTest(DIR + "mixd")
    void designs() {}
  }

  static final class EverythingExcluded {
    @DesignTest(value = DIR + "mixed", excludes = "**/*.design")
    void designs() {}
  }

  private static Events run(Class<?> c) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(c)).execute().allEvents();
  }

  /** The finished tests of {@code events} by display name: SUCCESSFUL, or FAILED with the failure's message. */
  private static Map<String, String> outcomes(Events events) {
    return events.finished().stream().filter(e -> e.getTestDescriptor().isTest()).collect(Collectors.toMap(
        e -> e.getTestDescriptor().getDisplayName(), DesignTestTest::outcome));
  }

  private static String outcome(Event e) {
    var result = e.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow();
    return result.getThrowable().map(t -> result.getStatus() + " " + t.getClass().getSimpleName() + ": " + t.getMessage())
        .orElse(result.getStatus().toString());
  }

  /** The message of the one failed container of {@code events} (the template, when it had no invocations). */
  private static String containerFailure(Events events) {
    List<Event> failed = events.failed().stream().filter(e -> e.getTestDescriptor().isContainer()).toList();
    assertThat(failed).hasSize(1);
    assertThat(events.stream().filter(e -> e.getType() == EventType.STARTED && e.getTestDescriptor().isTest())).isEmpty();
    return outcome(failed.get(0));
  }

  @Test
  void eachFileIsATestNamedByItsPathThatFailsWhenItsExpectLineIsWrong() {
    Mixed.MET.clear();
    Map<String, String> got = outcomes(run(Mixed.class));
    String mixed = Path.of(DIR + "mixed").toString();
    assertThat(got).containsOnlyKeys(Path.of(mixed, "met.design").toString(), Path.of(mixed, "wrong.design").toString(),
        Path.of(mixed, "nested", "no-expect-line.design").toString());
    assertThat(got.get(Path.of(mixed, "met.design").toString())).isEqualTo("SUCCESSFUL");
    assertThat(got.get(Path.of(mixed, "nested", "no-expect-line.design").toString())).isEqualTo("SUCCESSFUL");
    String wrong = got.get(Path.of(mixed, "wrong.design").toString());
    assertThat(wrong).startsWith("FAILED AssertionError: " + Path.of(mixed, "wrong.design")
        + ": expected OOM threads=gpu_worker:3 (the expect line, line 2), got OOM:\n"
        + "  expected the counterexample at gpu_worker:3, got gpu_worker:2\n")
        .contains("verdict   OOM", "counterexample (9 transitions, gpu_worker=2):", "alloc staged 12GiB",
            "HTML view of the counterexample: ");
    // the method ran for the two that met, with their file
    assertThat(Mixed.MET).extracting(f -> f.path().getFileName().toString())
        .containsExactlyInAnyOrder("met.design", "no-expect-line.design");
    DesignFile met = Mixed.MET.stream().filter(f -> f.hasExpectLine()).findFirst().orElseThrow();
    assertThat(met.expectation()).isEqualTo("OOM threads=gpu_worker:2 length=9");
    assertThat(met.result().violation()).contains(Violation.OOM);
    assertThat(met.mismatches()).isEmpty();
    DesignFile safe = Mixed.MET.stream().filter(f -> !f.hasExpectLine()).findFirst().orElseThrow();
    assertThat(safe.expectation()).isEqualTo("SAFE");
    assertThat(safe.result().isSafe()).isTrue();
  }

  @Test
  void includesAndExcludesChooseTheFiles() {
    assertThat(outcomes(run(MixedWithoutTheWrongOne.class)).values()).containsExactly("SUCCESSFUL", "SUCCESSFUL");
    assertThat(outcomes(run(OnlyNested.class))).containsOnlyKeys(
        Path.of(DIR + "mixed", "nested", "no-expect-line.design").toString());
  }

  @Test
  void aMalformedExpectLineOrDesignFailsItsInvocationWithThePosition() {
    Map<String, String> got = outcomes(run(Malformed.class));
    Path bad = Path.of(DIR + "malformed", "bad-expect.design");
    assertThat(got.get(bad.toString())).isEqualTo("FAILED AssertionError: " + bad
        + ":1:15: unknown clause 'lenght=9' (threads=ROLE:N,..., length=N, overlap(A,B)=REACHABLE|UNREACHABLE)");
    Path broken = Path.of(DIR + "malformed", "bad-design.design");
    assertThat(got.get(broken.toString())).startsWith("FAILED AssertionError: " + broken + ":5:");
  }

  @Test
  void aDirectoryWithoutDesignsFailsSoThatATypoCannotPass() {
    assertThat(containerFailure(run(NoDesigns.class))).isEqualTo("FAILED ExtensionConfigurationException: @DesignTest(\""
        + DIR + "none\"): no design file matches includes [**/*.design] and excludes []");
    assertThat(containerFailure(run(Typo.class))).startsWith("FAILED ExtensionConfigurationException: @DesignTest(\""
        + DIR + "mixd\"): no such directory");
    assertThat(containerFailure(run(EverythingExcluded.class))).contains("no design file matches");
    assertThat(Files.exists(Path.of(DIR + "mixd"))).isFalse();
  }
}
