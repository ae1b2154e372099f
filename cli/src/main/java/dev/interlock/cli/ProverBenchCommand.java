package dev.interlock.cli;

import dev.interlock.bench.ProverBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code interlock bench-prover}: CPU per-stage times of the Groth16 prover and partition sizes per n. */
@Command(name = "bench-prover", mixinStandardHelpOptions = true,
    description = "Benchmark the Groth16 prover on the CPU: setup and per-stage times (medians of 3) and the device memory a partition needs, for N = 2^FROM .. 2^TO.")
final class ProverBenchCommand implements Callable<Integer> {
  @Option(names = "--from", paramLabel = "K", description = "Smallest log2 N (default: ${DEFAULT-VALUE}).")
  int from = 10;

  @Option(names = "--to", paramLabel = "K", description = "Largest log2 N (default: ${DEFAULT-VALUE}).")
  int to = 16;

  @Override
  public Integer call() {
    if (from < 4 || to > 22 || from > to) {
      throw new CliError("need 4 <= --from <= --to <= 22, got " + from + ".." + to);
    }
    ProverBench.main(new String[] {String.valueOf(from), String.valueOf(to)});
    return 0;
  }
}
