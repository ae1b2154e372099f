package dev.interlock.cli;

import dev.interlock.bench.MsmBench;
import dev.interlock.prover.WitnessShape;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code interlock bench-msm}: CPU MSM times in G1 and G2, blst's native Pippenger against the Java one. */
@Command(name = "bench-msm", mixinStandardHelpOptions = true,
    description = "Benchmark CPU multi-scalar multiplication in G1 and G2 (medians of 3) for n = 2^FROM .. 2^TO in steps of 2: the default implementation (blst's native Pippenger where it loads) and, up to 2^JAVA_TO, the Java Pippenger; with --scalars filecoin the plain MSM and the split one over mostly 0/1 scalars. Each pair is checked to give the same point; exit status 1 if they disagree.")
final class MsmBenchCommand implements Callable<Integer> {
  @Option(names = "--from", paramLabel = "K", description = "Smallest log2 n (default: ${DEFAULT-VALUE}).")
  int from = 10;

  @Option(names = "--to", paramLabel = "K", description = "Largest log2 n (default: ${DEFAULT-VALUE}).")
  int to = 16;

  @Option(names = "--java-to", paramLabel = "K", description = "Largest log2 n timed with the Java Pippenger too (default: --to).")
  Integer javaTo;

  @Option(names = "--seed", description = "Seed of the random bases and scalars (default: ${DEFAULT-VALUE}).")
  long seed = 1;

  @Option(names = "--scalars", paramLabel = "KIND", description = "random (uniform scalars, default: native against Java) or "
      + "filecoin (mostly 0/1 with --full-scalars of them full-width: the plain MSM against the split one that b_g2_msm runs).")
  String scalars = "random";

  @Option(names = "--full-scalars", paramLabel = "PERCENT", description = "With --scalars filecoin: the share of full-width scalars "
      + "(default: 1%).")
  String fullScalars;

  @Override
  public Integer call() {
    if (from < 1 || to > 24 || from > to) {
      throw new CliError("need 1 <= --from <= --to <= 24, got " + from + ".." + to);
    }
    switch (scalars) {
      case "random":
        if (fullScalars != null) {
          throw new CliError("--full-scalars needs --scalars filecoin");
        }
        return MsmBench.run(from, to, javaTo == null ? to : javaTo, seed) ? 0 : 1;
      case "filecoin":
        if (javaTo != null) {
          throw new CliError("--java-to needs --scalars random");
        }
        int ppm = fullScalars == null ? WitnessShape.DEFAULT_FILECOIN_FULL_PPM : ProveCommand.ppm(fullScalars);
        return MsmBench.runSplit(from, to, ppm, seed) ? 0 : 1;
      default:
        throw new CliError("--scalars must be random or filecoin, got '" + scalars + "'");
    }
  }
}
