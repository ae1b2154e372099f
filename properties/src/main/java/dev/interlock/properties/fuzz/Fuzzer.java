package dev.interlock.properties.fuzz;

import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyResult;
import dev.interlock.properties.engine.PropertyRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Runs a reader on fuzzed inputs, each on a worker thread under a timeout, and allows only two outcomes: a value, or
 * the reader's positioned error. Anything else (another exception, an "internal error" message, a stack overflow, an
 * out-of-memory error, no answer within the timeout) fails the property, which then shrinks it and prints its seed.
 */
public final class Fuzzer implements AutoCloseable {
  /** The system property with the number of inputs per reader (the benchmark mode sets 100000). */
  public static final String COUNT_PROPERTY = "interlock.fuzz.count";

  /** Inputs per reader in {@code mvn verify}. */
  public static final int DEFAULT_COUNT = 1000;

  /** Seconds one input may take before it counts as a hang. */
  public static final long TIMEOUT_SECONDS = 10;

  /** The ending of a regression case file: the raw input, as the fuzzer made it. */
  public static final String REGRESSION_SUFFIX = ".input";

  private final Reader reader;
  private ExecutorService worker = newWorker();
  private long parsed;
  private long rejected;
  private long nanos;

  public Fuzzer(Reader reader) {
    this.reader = reader;
  }

  /** The number of inputs per reader: {@code -Dinterlock.fuzz.count}, else {@link #DEFAULT_COUNT}. */
  public static int count() {
    return Integer.getInteger(COUNT_PROPERTY, DEFAULT_COUNT);
  }

  /** What reading one input gave: a value (true) or the positioned error (false); throws AssertionError otherwise. */
  public boolean read(String text) {
    long start = System.nanoTime();
    Future<Object> f = worker.submit(() -> reader.parse().parse(reader.file(), text));
    try {
      f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      parsed++;
      return true;
    } catch (TimeoutException e) {
      f.cancel(true);
      worker.shutdownNow(); // a thread that does not stop is left behind, as a daemon
      worker = newWorker();
      throw new AssertionError(reader.name() + ": no answer within " + TIMEOUT_SECONDS + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      allowed(cause, text);
      rejected++;
      return false;
    } finally {
      nanos += System.nanoTime() - start;
    }
  }

  /** Throws AssertionError unless {@code t} is the reader's positioned error with a one-line message in range. */
  private void allowed(Throwable t, String text) {
    if (!reader.positioned().isInstance(t)) {
      throw new AssertionError(reader.name() + " threw " + t, t);
    }
    String m = t.getMessage();
    if (m == null || !reader.message().matcher(m).matches() || m.contains("internal error")) {
      throw new AssertionError(reader.name() + ": not a one-line FILE:LINE:COL: message: "
          + (m == null ? null : Mutant.escape(m, 400)), t);
    }
    int line = Integer.parseInt(m.substring(reader.file().length() + 1).split(":", 2)[0]);
    long lines = text.split("\r?\n|\r", -1).length;
    if (line > lines + 1) {
      throw new AssertionError(reader.name() + ": line " + line + " past the end (" + lines + " lines): " + m, t);
    }
  }

  /**
   * Checks the reader on {@code count} mutants: a failure is shrunk and thrown as AssertionError with its seed. Prints
   * one line with the inputs tried, how many were read and rejected, and inputs per second.
   */
  public static Stats check(Reader reader, Gen<Mutant> mutants, int count) {
    String name = "fuzz " + reader.name();
    Config config = Config.defaults(name).withTries(count).withMaxShrinks(2000);
    try (Fuzzer f = new Fuzzer(reader)) {
      PropertyResult<Mutant> result = PropertyRunner.check(name, mutants, m -> {
        f.read(m.text());
        return true;
      }, config);
      Stats s = f.stats();
      System.out.println("[fuzz] " + reader.name() + " seed=" + config.seed() + ": " + s
          + (result instanceof PropertyResult.Failed<?> ? ", FAILED" : ""));
      if (result instanceof PropertyResult.Failed<Mutant> failed) {
        throw new AssertionError(failed.report(), failed.failure());
      }
      return s;
    }
  }

  /** What this fuzzer saw so far (shrinking included). */
  public Stats stats() {
    return new Stats(parsed + rejected, parsed, rejected, nanos / 1e9);
  }

  /** Inputs tried, how many were read, how many got the positioned error, and the seconds they took. */
  public record Stats(long tried, long parsed, long rejected, double seconds) {
    public double perSecond() {
      return seconds > 0 ? tried / seconds : tried;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%d inputs (%d read, %d rejected with a positioned error) in %.1f s, %.0f inputs/s",
          tried, parsed, rejected, seconds, perSecond());
    }
  }

  private static ExecutorService newWorker() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(null, r, "interlock-fuzz", 1 << 20);
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  public void close() {
    worker.shutdownNow();
  }

  /**
   * Reads every {@value #REGRESSION_SUFFIX} file under {@code dir} (a crash found once, kept as a case) and returns how many there were; throws
   * AssertionError naming the file when one is not read or rejected with the positioned error.
   */
  public static int regressions(Reader reader, Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(p -> p.toString().endsWith(REGRESSION_SUFFIX)).sorted().toList();
    }
    try (Fuzzer f = new Fuzzer(reader)) {
      for (Path p : files) {
        String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
        try {
          f.read(text);
        } catch (AssertionError e) {
          throw new AssertionError(p + ": " + e.getMessage(), e);
        }
      }
    }
    return files.size();
  }

  /** The seeds: every file under {@code dir} whose name ends in {@code suffix}, named by its path. */
  public static List<Mutations.Seed> seeds(Path dir, String suffix) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Mutations.Seed> out = new ArrayList<>();
      for (Path p : walk.filter(p -> p.toString().endsWith(suffix)).sorted().toList()) {
        out.add(new Mutations.Seed(p.toString(), Files.readString(p)));
      }
      return out;
    }
  }
}
