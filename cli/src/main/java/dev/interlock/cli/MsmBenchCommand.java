package dev.interlock.cli;

import dev.interlock.bench.MsmBench;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code interlock bench-msm}: CPU MSM times in G1 and G2, blst's native Pippenger against the Java one. */
@Command(name = "bench-msm", mixinStandardHelpOptions = true,
    description = "Benchmark CPU multi-scalar multiplication in G1 and G2 (medians of 3) for n = 2^FROM .. 2^TO in steps of 2: the default implementation (blst's native Pippenger where it loads) and, up to 2^JAVA_TO, the Java Pippenger, checking that both give the same point. Exit status 1 if they disagree.")
final class MsmBenchCommand implements Callable<Integer> {
  @Option(names = "--from", paramLabel = "K", description = "Smallest log2 n (default: ${DEFAULT-VALUE}).")
  int from = 10;

  @Option(names = "--to", paramLabel = "K", description = "Largest log2 n (default: ${DEFAULT-VALUE}).")
  int to = 16;

  @Option(names = "--java-to", paramLabel = "K", description = "Largest log2 n timed with the Java Pippenger too (default: --to).")
  Integer javaTo;

  @Option(names = "--seed", description = "Seed of the random bases and scalars (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Override
  public Integer call() {
    if (from < 1 || to > 24 || from > to) {
      throw new CliError("need 1 <= --from <= --to <= 24, got " + from + ".." + to);
    }
    return MsmBench.run(from, to, javaTo == null ? to : javaTo, seed) ? 0 : 1;
  }
}
