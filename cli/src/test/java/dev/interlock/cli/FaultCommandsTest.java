package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run} and {@code prove} with {@code --faults}: the spec's errors, the summary lines, retries and proofs. */
class FaultCommandsTest {
  @TempDir
  Path keys;

  @Test
  void aBadSpecIsOnePositionedLineWithExitTwo() {
    CliTest.Run r = CliTest.run("run", "designs/single-lock.design", "--faults", "alloc=0.1,kernel=1.5");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("interlock: --faults 'alloc=0.1,kernel=1.5': item 2 'kernel=1.5' (column 18): rate 1.5 is not a "
        + "probability from 0 to 1" + System.lineSeparator());
    CliTest.Run p = CliTest.run("prove", "--design", "designs/single-lock.design", "--keys", keys.toString(), "--faults", "oom@staged:1");
    assertThat(p.status()).isEqualTo(2);
    assertThat(p.err()).startsWith("interlock: --faults 'oom@staged:1': item 1 'oom@staged:1' (column 1): unknown fault kind 'oom'")
        .doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(CliTest.run("run", "designs/single-lock.design", "--fault-seed", "3").err()).contains("--fault-seed needs --faults");
    assertThat(CliTest.run("run", "designs/single-lock.design", "--faults", "alloc=0.1", "--retry-real").err())
        .contains("--retry-real needs --retries N");
  }

  @Test
  void runReportsTheInjectedFaultAndRetriesRecoverIt() {
    CliTest.Run once = CliTest.run("run", "designs/single-lock.design", "--faults", "alloc@staged:3", "--fault-seed", "9");
    assertThat(once.status()).as(once.out() + once.err()).isEqualTo(1);
    assertThat(once.out()).contains("fault seed 9 (rerun: --fault-seed 9)")
        .contains("replay    skipped: a run with injected faults does not replay on the model")
        .contains("gpu_worker: 5 completed, 0 failed, 0 aborted, 1 failed by injected faults")
        .contains("injected  alloc 1, kernel 0, stall 0, poison 0, interrupt 0, exception 0: 1 faults injected in all")
        .contains("outcome   6 jobs: 5 completed (0 of them after retries), 0 failed real (the design's), 1 failed injected after retries, 0 aborted, 0 lost")
        .contains("failed at 'alloc staged 12GiB': injected alloc fault at staged on gpu_worker#")
        .contains("shutdown  clean: nothing live on the device, no lock or permit held");
    CliTest.Run retried = CliTest.run("run", "designs/single-lock.design", "--faults", "alloc@staged:3,poison@ntt_msm:4", "--retries", "2");
    assertThat(retried.status()).as(retried.out() + retried.err()).isZero();
    assertThat(retried.out()).contains("outcome   6 jobs: 6 completed").contains(", 0 lost")
        .contains("contexts  1 device contexts recreated after a poison").containsPattern("throughput [0-9.]+ jobs per second");
  }

  @Test
  void runPrintsTheSameFiguresWhetherItKeepsItsEventsOrNot(@TempDir Path dir) {
    String[] args = {"run", "designs/single-lock.design", "--threads", "gpu_worker=1", "--jobs", "gpu_worker=300", "--faults",
        "alloc=0.05,kernel=0.02,stall=0.01,poison=0.005,interrupt=0.01,exception=0.01", "--fault-seed", "7", "--retries", "1"};
    CliTest.Run counts = CliTest.run(args); // nothing reads the events afterwards: the engine keeps only its tally
    String[] keeping = java.util.Arrays.copyOf(args, args.length + 2);
    keeping[args.length] = "--timeline-json"; // which reads every event: the engine keeps them all
    keeping[args.length + 1] = dir.resolve("run.json").toString();
    CliTest.Run all = CliTest.run(keeping);
    assertThat(all.status()).as(all.out() + all.err()).isEqualTo(counts.status()).isEqualTo(1);
    assertThat(figures(counts.out())).isEqualTo(figures(all.out()))
        .anyMatch(l -> l.matches("retries   [1-9][0-9]* retries in all: .*"))
        .anyMatch(l -> l.matches("  \\.\\.\\. and [1-9][0-9]* more jobs failed by injected faults"))
        .anyMatch(l -> l.matches("events    [1-9][0-9]* transitions recorded"));
  }

  /** The lines of {@code run}'s output that are counts, not times (the events line without its seconds). */
  private static java.util.List<String> figures(String out) {
    return out.lines().filter(l -> !l.startsWith("throughput ") && !l.startsWith("timeline "))
        .map(l -> l.replaceFirst("^(events .*) in [0-9.]+ s$", "$1")).toList();
  }

  @Test
  void proveRetriesPartitionsAndVerifiesEveryProof() {
    CliTest.Run r = CliTest.run("prove", "--n", "2^6", "--partitions", "6", "--workers", "3", "--design", "designs/single-lock.design",
        "--keys", keys.toString(), "--seed", "3", "--no-timeline", "--faults", "alloc@staged:2,kernel@msm:3,poison@ntt_h:4,stall=0.2",
        "--fault-seed", "1", "--retries", "3");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("6/6 proofs verified").contains("seed 3 (rerun: --seed 3)").contains("fault seed 1")
        .contains("contexts  1 device contexts recreated after a poison").contains(", 0 lost")
        .containsPattern("retries   [1-9][0-9]* retries in all")
        // a kernel failed at its await begins and never ends: the count KernelBusy replaced read 0.0% here (gpu/NOTES.md run 43)
        .containsPattern("kernel steps busy (?!0\\.0%)[0-9]+\\.[0-9]% of the wall");
    CliTest.Run spent = CliTest.run("prove", "--n", "2^6", "--partitions", "2", "--design", "designs/single-lock.design",
        "--keys", keys.toString(), "--seed", "3", "--no-timeline", "--faults", "exception@staged:1");
    assertThat(spent.status()).isEqualTo(1);
    assertThat(spent.out()).contains("1/2 proofs verified")
        .containsPattern("problem   partition [01] failed at 'alloc staged [^']+': injected exception fault at staged")
        .contains("1 failed injected after retries, 0 aborted, 0 lost");
  }
}
