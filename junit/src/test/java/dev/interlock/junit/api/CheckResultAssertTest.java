package dev.interlock.junit.api;

import static dev.interlock.junit.api.InterlockAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckResultAssertTest {
  private static final CheckResult OOM = Interlock.check(Designs.TWO_LOCK).run();
  private static final CheckResult SAFE = Interlock.check(Designs.TWO_LOCK).vram("32GiB").run();

  @TempDir
  Path reports;
  private String before;

  @BeforeEach
  void reportsIntoATemporaryDirectory() {
    before = System.getProperty(HtmlReports.PROPERTY);
    System.setProperty(HtmlReports.PROPERTY, reports.toString());
  }

  @AfterEach
  void restore() {
    if (before == null) {
      System.clearProperty(HtmlReports.PROPERTY);
    } else {
      System.setProperty(HtmlReports.PROPERTY, before);
    }
  }

  private static AssertionError failure(Runnable assertion) {
    return catchThrowableOfType(assertion::run, AssertionError.class);
  }

  /** The HTML file a failure message names, which must exist inside the reports directory. */
  private Path html(String message) {
    Matcher m = Pattern.compile("HTML view of the (?:counterexample|witness): (\\S+\\.html)").matcher(message);
    Assertions.assertThat(m.find()).as(message).isTrue();
    Path file = Path.of(m.group(1));
    Assertions.assertThat(file).exists().startsWith(reports.toAbsolutePath());
    return file;
  }

  @Test
  void aSwallowedFailureIsItsOwnViolation() {
    String ignored = "design ignored\nvram 16GiB\nrole gpu_worker x2\n  alloc staged 10GiB\n  on oom ignore\n"
        + "  kernel ntt uses staged\n  free staged\n";
    CheckResult r = Interlock.check(ignored).run();
    assertThat(r).hasViolation(Violation.SWALLOWED_OOM).withMinimalThreads("gpu_worker", 2).withCounterexampleOfLength(2);
    Assertions.assertThat(failure(() -> assertThat(r).hasViolation(Violation.OOM))).isNotNull();
    assertThat(Interlock.check(ignored.replace("  on oom ignore\n", "  on oom\n  alloc staged 6GiB\n  end\n")).run())
        .isSafe();
  }

  @Test
  void passingAssertionsChain() {
    assertThat(OOM).hasViolation(Violation.OOM).withMinimalThreads("gpu_worker", 2).withCounterexampleOfLength(9)
        .overlapIsReachable("b_g2_msm", "ntt_msm");
    assertThat(SAFE).isSafe().overlapIsReachable("b_g2_msm", "ntt_msm");
    assertThat(Interlock.check(Designs.TWO_LOCK).threads("gpu_worker", 1).run()).isSafe()
        .overlapIsUnreachable("b_g2_msm", "ntt_msm");
  }

  @Test
  void isSafeOfAnOomFailsWithTheVerdictTheTraceAndTheHtmlView() throws Exception {
    AssertionError e = failure(() -> assertThat(OOM).isSafe());
    Assertions.assertThat(e.getMessage()).startsWith("expected SAFE, got OOM\n").contains("verdict   OOM")
        .contains(OOM.counterexample().orElseThrow());
    Path file = html(e.getMessage());
    Assertions.assertThat(Files.readString(file)).startsWith("<!DOCTYPE html>").contains("two-lock");
  }

  @Test
  void wrongCounterexampleDetailsFail() {
    Assertions.assertThat(failure(() -> assertThat(OOM).hasViolation(Violation.OOM).withMinimalThreads("gpu_worker", 3))
        .getMessage()).startsWith("expected the counterexample at gpu_worker:3, got gpu_worker:2\n");
    Assertions.assertThat(failure(() -> assertThat(OOM).withCounterexampleOfLength(8)).getMessage())
        .startsWith("expected a counterexample of 8 transitions, got 9\n");
    Assertions.assertThat(failure(() -> assertThat(OOM).hasViolation(Violation.DEADLOCK)).getMessage())
        .startsWith("expected DEADLOCK, got OOM\n");
    Assertions.assertThat(failure(() -> assertThat(SAFE).withMinimalThreads("gpu_worker", 2)).getMessage())
        .startsWith("expected a counterexample at gpu_worker:2, got none: the verdict is SAFE\n");
  }

  @Test
  void aReachableOverlapExpectedUnreachableFailsWithItsWitness() {
    String message = failure(() -> assertThat(SAFE).overlapIsUnreachable("b_g2_msm", "ntt_msm")).getMessage();
    Assertions.assertThat(message).startsWith("expected overlap(b_g2_msm,ntt_msm) UNREACHABLE, got REACHABLE\n")
        .contains("witness of the overlap");
    Assertions.assertThat(html(message).getFileName().toString()).startsWith("two-lock-SAFE-witness");
  }

  @Test
  void aSecondFailureOnTheSameDesignGetsItsOwnFile() {
    Path first = html(failure(() -> assertThat(OOM).isSafe()).getMessage());
    Path second = html(failure(() -> assertThat(OOM).isSafe()).getMessage());
    Assertions.assertThat(second).isNotEqualTo(first);
  }

  @Test
  void meetsItsExpectationReadsTheExpectLine() {
    assertThat(Interlock.check("# expect: OOM threads=gpu_worker:2 length=9 overlap(b_g2_msm,ntt_msm)=REACHABLE\n"
        + Designs.TWO_LOCK).run()).meetsItsExpectation();
    assertThat(SAFE).meetsItsExpectation();
    String message = failure(() -> assertThat(Interlock.check("# expect: OOM threads=gpu_worker:3\n" + Designs.TWO_LOCK)
        .run()).meetsItsExpectation()).getMessage();
    Assertions.assertThat(message).startsWith("expected OOM threads=gpu_worker:3 (the expect line, line 1):\n"
        + "  expected the counterexample at gpu_worker:3, got gpu_worker:2\n");
    html(message);
    Assertions.assertThat(failure(() -> assertThat(OOM).meetsItsExpectation()).getMessage())
        .startsWith("expected SAFE (no expect line):\n  expected verdict SAFE, got OOM\n");
  }

  @Test
  void aMalformedExpectLineFailsWithItsPosition() {
    CheckResult r = Interlock.check("x.design", "# expect: OOM lenght=9\n" + Designs.TWO_LOCK).run();
    Assertions.assertThat(failure(() -> assertThat(r).meetsItsExpectation()).getMessage())
        .isEqualTo("x.design:1:15: unknown clause 'lenght=9' (threads=ROLE:N,..., length=N,"
            + " overlap(A,B)=REACHABLE|UNREACHABLE)");
  }

  @Test
  void aDescriptionPrefixesTheMessage() {
    Assertions.assertThat(failure(() -> assertThat(OOM).as("two-lock on 16 GiB").isSafe()).getMessage())
        .startsWith("[two-lock on 16 GiB] expected SAFE, got OOM");
  }

  @Test
  void theReportsDirectoryDefaultsToTheModulesSurefireReports() {
    System.clearProperty(HtmlReports.PROPERTY);
    String base = System.getProperty("basedir");
    Path expected = (base == null ? Path.of("") : Path.of(base)).resolve("target/surefire-reports/interlock");
    Assertions.assertThat(HtmlReports.directory()).isEqualTo(expected);
    if (base != null) { // under Maven: this module's directory, not the repository root the tests run in
      Assertions.assertThat(Path.of(base).resolve("pom.xml")).exists();
      Assertions.assertThat(Path.of(base).getFileName().toString()).isEqualTo("junit");
    }
  }

  @Test
  void anOverlapOfAnUnknownIntervalIsBadInput() {
    assertThatThrownBy(() -> assertThat(OOM).overlapIsReachable("b_g2_msm", "msm"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("<string>: overlap: no interval 'msm'");
  }
}
