package dev.interlock.cli;

import static dev.interlock.cli.CliTest.design;
import static dev.interlock.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code interlock fidelity} on the simulated device. */
class FidelityCommandTest {
  @Test
  void theShippedTextbookDesignsAgreeOnTheSimulatedDevice() {
    CliTest.Run r = run("fidelity", design("two-lock"), design("single-lock"), "--runs", "3");
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out())
        .containsPattern("two-lock.design +model OOM at 9 +device OOM at 9 +agree")
        .containsPattern("single-lock.design +model SAFE +device 3/3 runs complete, nothing live +agree")
        .contains("fidelity 2/2 designs agree");
  }

  @Test
  void aDesignTheModelCannotDecideWithinTheLimitIsNotCountedAsAgreeing() {
    CliTest.Run r = run("fidelity", design("single-lock"), "--max-states", "10");
    assertThat(r.status()).as(r.describe()).isEqualTo(1);
    assertThat(r.out()).contains("model LIMIT").contains("DISAGREE").contains("fidelity 0/1 designs agree");
  }

  @Test
  void badDesignsAreInputErrorsBeforeAnythingRuns(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.design");
    Files.writeString(bad, "design x\nvram 16GiB\nrole w x1 jobs 1\n  spawn nobody\n");
    CliTest.Run r = run("fidelity", design("single-lock"), bad.toString());
    assertThat(r.status()).as(r.describe()).isEqualTo(2);
    assertThat(r.err()).contains(bad + ":4:").contains("nobody");
    assertThat(r.out()).doesNotContain("fidelity");
    assertThat(run("fidelity", "--device", "tpu", design("single-lock")).status()).isEqualTo(2);
  }

  @Test
  void safeVerdictsRecordedByAModelOnlyRunAreNotSearchedAgain(@TempDir Path dir) throws Exception {
    Path verdicts = dir.resolve("verdicts.txt");
    CliTest.Run model = run("fidelity", "--model-only", "--verdicts-out", verdicts.toString(), design("single-lock"),
        design("two-lock"));
    assertThat(model.status()).as(model.describe()).isZero();
    assertThat(Files.readString(verdicts)).contains(design("single-lock") + " SAFE 160").doesNotContain("two-lock"); // 160: the reduced search's states
    CliTest.Run again = run("fidelity", "--model-only", "--verdicts-out", verdicts.toString(), design("single-lock"));
    assertThat(again.status()).as("never overwrites").isEqualTo(2);
    // a recorded verdict is taken as given: a tiny --max-states would make the search stop at LIMIT
    CliTest.Run r = run("fidelity", "--verdicts", verdicts.toString(), "--max-states", "10", "--runs", "2",
        design("single-lock"));
    assertThat(r.status()).as(r.describe()).isZero();
    assertThat(r.out()).contains("model SAFE (recorded)").contains("fidelity 1/1 designs agree");
  }
}
