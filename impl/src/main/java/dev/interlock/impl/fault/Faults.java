package dev.interlock.impl.fault;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Decides, call by call, whether a fault strikes, from a spec and a seed; counts what it injected.
 *
 * <p>Why per-thread random streams: each thread ({@code role#i}, or a task thread) draws from its own stream, seeded
 * from the seed and its name, so a thread's sequence of decisions depends only on its own sequence of calls, not on
 * how threads interleave; with one thread a run is reproduced exactly. {@code KIND@STEP:N} counts executions of the
 * step across the run and strikes once. Thread-safe.
 */
public final class Faults {
  /** Injects nothing. */
  public static final Faults NONE = new Faults(FaultSpec.NONE, 0, 0);

  /** How long a stall delays a kernel's completion by default. */
  public static final long DEFAULT_STALL_NANOS = 2_000_000;

  private final FaultSpec spec;
  private final long seed;
  private final long stallNanos;
  private final double[] rates = new double[FaultKind.values().length];
  private final Map<FaultKind, Map<String, List<AtomicCount>>> atSteps = new EnumMap<>(FaultKind.class);
  private final LongAdder[] injected = new LongAdder[FaultKind.values().length];
  private final ThreadLocal<SplittableRandom> random;

  /** One {@code KIND@STEP:N} rule with its count of executions so far. */
  private record AtomicCount(int n, AtomicInteger seen) {}

  /**
   * @param spec       what to inject
   * @param seed       the seed of every random decision
   * @param stallNanos how long a stall delays a kernel's completion
   */
  public Faults(FaultSpec spec, long seed, long stallNanos) {
    if (stallNanos < 0) {
      throw new IllegalArgumentException("negative stall " + stallNanos);
    }
    this.spec = spec;
    this.seed = seed;
    this.stallNanos = stallNanos;
    for (FaultKind k : FaultKind.values()) {
      rates[k.ordinal()] = spec.rate(k);
      injected[k.ordinal()] = new LongAdder();
    }
    for (FaultRule.AtStep r : spec.atSteps()) {
      atSteps.computeIfAbsent(r.kind(), k -> new HashMap<>()).computeIfAbsent(r.step(), s -> new ArrayList<>())
          .add(new AtomicCount(r.n(), new AtomicInteger()));
    }
    random = ThreadLocal.withInitial(() -> new SplittableRandom(seed ^ mix(Thread.currentThread().getName().hashCode())));
  }

  /** With the default stall time. */
  public Faults(FaultSpec spec, long seed) {
    this(spec, seed, DEFAULT_STALL_NANOS);
  }

  public FaultSpec spec() {
    return spec;
  }

  public long seed() {
    return seed;
  }

  public long stallNanos() {
    return stallNanos;
  }

  /** Whether this injects nothing. */
  public boolean none() {
    return spec.isEmpty();
  }

  /** Whether any rule is of {@code kind}. */
  public boolean injects(FaultKind kind) {
    return rates[kind.ordinal()] > 0 || atSteps.containsKey(kind);
  }

  /**
   * One call of kind {@code kind} at step {@code step} on the calling thread: the fault, when one strikes, counted.
   * {@code detail} says what the fault does there.
   */
  public Optional<Fault> draw(FaultKind kind, String step, String detail) {
    if (!injects(kind)) {
      return Optional.empty();
    }
    boolean strike = false;
    Map<String, List<AtomicCount>> at = atSteps.get(kind);
    if (at != null) {
      for (AtomicCount c : at.getOrDefault(step, List.of())) {
        strike |= c.seen().incrementAndGet() == c.n();
      }
    }
    double p = rates[kind.ordinal()];
    if (p > 0 && random.get().nextDouble() < p) {
      strike = true;
    }
    if (!strike) {
      return Optional.empty();
    }
    injected[kind.ordinal()].increment();
    return Optional.of(new Fault(kind, step, Thread.currentThread().getName(), detail));
  }

  /** A fair coin from the calling thread's stream (a kernel fault at launch or at await). */
  public boolean coin() {
    return random.get().nextBoolean();
  }

  /** Faults of {@code kind} injected so far. */
  public long injected(FaultKind kind) {
    return injected[kind.ordinal()].sum();
  }

  /** Faults injected so far, by kind, every kind present. */
  public Map<FaultKind, Long> injected() {
    Map<FaultKind, Long> out = new EnumMap<>(FaultKind.class);
    for (FaultKind k : FaultKind.values()) {
      out.put(k, injected(k));
    }
    return out;
  }

  /** Every fault injected so far. */
  public long injectedTotal() {
    long t = 0;
    for (LongAdder a : injected) {
      t += a.sum();
    }
    return t;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
