package dev.interlock.impl.lincheck;

import java.lang.management.ManagementFactory;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/** Runs a Lincheck model check and reports what it found and how long it took. */
final class LincheckRuns {
  private LincheckRuns() {}

  /**
   * Checks {@code test}'s operations against {@code spec} in model-checking mode with the budget
   * (defaults overridden by system properties, printed).
   *
   * @return Lincheck's failure, or null when every explored interleaving was linearizable
   */
  static LincheckAssertionError check(Class<?> test, Class<?> spec, LincheckBudget defaults) {
    String name = test.getSimpleName();
    LincheckBudget budget = defaults.fromSystemProperties().print(name);
    ModelCheckingOptions options = budget.modelChecking().sequentialSpecification(spec);
    long start = System.nanoTime();
    long cpu = cpuNanos();
    try {
      options.check(test);
      System.out.printf("[lincheck] %s: no violation of linearizability found (%s)%n", name, took(start, cpu));
      return null;
    } catch (LincheckAssertionError e) {
      System.out.printf("[lincheck] %s: Lincheck reports a failure (%s):%n%s%n", name, took(start, cpu), e.getMessage());
      return e;
    }
  }

  private static String took(long startNanos, long startCpuNanos) {
    double wall = (System.nanoTime() - startNanos) / 1e9;
    long cpu = cpuNanos();
    return cpu < 0 ? String.format("%.1fs", wall) : String.format("%.1fs wall, %.1fs cpu", wall, (cpu - startCpuNanos) / 1e9);
  }

  /** CPU time of this JVM so far (all threads), or -1 where the platform does not say. */
  private static long cpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
