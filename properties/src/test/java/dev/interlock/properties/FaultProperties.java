package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RetryPolicy;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.FaultRule;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.DesignPrinter;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Unlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The engine under injected faults on random designs the checker finds SAFE: every job gets exactly one result, no
 * real failure appears (a fault's cleanup leaves nothing that makes another job fail), the device is empty at the end
 * (after any reopening) and no lock or permit is held after shutdown.
 *
 * <p>Why SAFE designs whose bodies give back every lock they take: an unsafe design fails on its own, and one that
 * ends a job holding a lock keeps it (the model allows that); what is checked here is that injected faults add no failure and lose nothing. Tries: {@code -Dinterlock.faults.tries}
 * (default 40; {@code -Dinterlock.faults.siblings.tries}, default 30, for the designs of {@link #siblingCases()}).
 */
class FaultProperties {
  private static final int TRIES = Integer.getInteger("interlock.faults.tries", 40);
  private static final int SIBLING_TRIES = Integer.getInteger("interlock.faults.siblings.tries", 30);
  private static final double[] RATES = {0, 0, 0.02, 0.1};

  /** A SAFE design, the faults injected into its run, and the retries. */
  record FaultCase(Design design, FaultSpec spec, long faultSeed, int retries) {
    @Override
    public String toString() {
      return "\n" + DesignPrinter.print(design) + "--faults " + spec.text() + " --fault-seed " + faultSeed + " --retries " + retries;
    }
  }

  private static Gen<FaultSpec> specs() {
    return s -> {
      List<FaultRule> rules = new ArrayList<>();
      for (FaultKind k : FaultKind.values()) {
        double p = RATES[s.choose(RATES.length - 1)];
        if (p > 0) {
          rules.add(new FaultRule.Rate(k, p));
        }
      }
      if (s.chance(1, 2)) {
        FaultKind k = FaultKind.values()[s.choose(FaultKind.values().length - 1)];
        String step = List.of("b0", "b1", "k0", "m0", "m1", "sem", "sync", "kernel", "cpu").get(s.choose(8));
        rules.add(new FaultRule.AtStep(k, step, 1 + s.choose(3)));
      }
      return new FaultSpec(rules);
    };
  }

  /** Whether every body (roles and tasks) gives back every mutex and permit it takes, on either branch of an if. */
  static boolean balanced(Design d) {
    return d.roles().stream().allMatch(r -> net(r.body()) != null && net(r.body()).isEmpty())
        && d.tasks().stream().allMatch(t -> net(t.body()) != null && net(t.body()).isEmpty());
  }

  /** Permits taken minus given back per lock by {@code steps}, zero entries left out; null when an if's branches differ. */
  private static Map<String, Integer> net(List<Step> steps) {
    Map<String, Integer> n = new TreeMap<>();
    for (Step st : steps) {
      if (st instanceof Lock l) {
        n.merge(l.mutex(), 1, Integer::sum);
      } else if (st instanceof Unlock u) {
        n.merge(u.mutex(), -1, Integer::sum);
      } else if (st instanceof Acquire a) {
        n.merge(a.semaphore(), a.permits(), Integer::sum);
      } else if (st instanceof Release r) {
        n.merge(r.semaphore(), -r.permits(), Integer::sum);
      } else if (st instanceof IfFree f) {
        Map<String, Integer> then = net(f.then());
        if (then == null || !then.equals(net(f.otherwise()))) {
          return null;
        }
        then.forEach((k, v) -> n.merge(k, v, Integer::sum));
      }
    }
    n.values().removeIf(v -> v == 0);
    return n;
  }

  private static Gen<FaultCase> cases() {
    Gen<Design> safe = DesignGen.designs().filter(d -> balanced(d) && Checker.check(d, "<random>",
        Checker.Options.defaults(200_000)).verdict() instanceof Verdict.Safe);
    return safe.flatMap(d -> specs().flatMap(spec -> Gen.longs(0, Long.MAX_VALUE).flatMap(seed -> Gen.ints(0, 3)
        .map(retries -> new FaultCase(d, spec, seed, retries)))));
  }

  /**
   * SAFE designs where a failed job's buffer must be freed before its lock goes: worker a locks m over a buffer big,
   * its helper task still waiting or running (for an event, for m, for a mutex n that worker c holds while it waits for
   * m, or in a cpu step), and kernel faults fail a's kernel k under m; workers b lock m and allocate what fits only
   * once big is freed. Why a generator of its own: random designs rarely have a task beside a lock held over a big
   * buffer, and here a failure that gives back m before big is freed is a real OOM of b's.
   */
  static Gen<FaultCase> siblingCases() {
    Gen<Design> designs = s -> {
      int vram = 8 + s.choose(8);
      int big = vram / 2 + 1 + s.choose(vram / 2 - 2);
      int other = vram - big + 1 + s.choose(big - (vram - big) - 1);
      int helper = s.choose(3);
      List<String> helperBody = List.of(List.of("wait go"), List.of("lock m", "unlock m"),
          List.of("lock n", "unlock n"), List.of("cpu work")).get(helper);
      boolean spawnFirst = s.chance(1, 2);
      StringBuilder d = new StringBuilder("design siblings\nvram " + vram + "GiB\nmutex m\nmutex n\ntask helper\n");
      helperBody.forEach(st -> d.append("  ").append(st).append('\n'));
      d.append("role a x1 jobs ").append(1 + s.choose(1)).append('\n');
      d.append(spawnFirst ? "  spawn helper\n" : "");
      d.append("  lock m\n  alloc big ").append(big).append("GiB\n");
      d.append(spawnFirst ? "" : "  spawn helper\n");
      d.append("  kernel k uses big\n  free big\n  signal go\n  unlock m\n  join helper\n");
      d.append("role b x").append(1 + s.choose(1)).append(" jobs ").append(1 + s.choose(1)).append('\n');
      d.append("  lock m\n  alloc other ").append(other).append("GiB\n  free other\n  unlock m\n");
      if (helper == 2) {
        d.append("role c x1 jobs 1\n  lock n\n  lock m\n  unlock m\n  unlock n\n");
      }
      try {
        return DesignParser.parse("<siblings>", d.toString());
      } catch (DesignException e) {
        throw new IllegalStateException(d.toString(), e);
      }
    };
    Gen<FaultSpec> faults = s -> {
      List<FaultRule> rules = new ArrayList<>();
      rules.add(new FaultRule.Rate(FaultKind.KERNEL, s.chance(1, 2) ? 0.3 : 0.6)); // k is the design's only kernel
      if (s.chance(1, 2)) {
        rules.add(new FaultRule.AtStep(FaultKind.EXCEPTION, "k", 1 + s.choose(1)));
      }
      return new FaultSpec(rules);
    };
    Gen<Design> safe = designs.filter(d -> Checker.check(d, "<siblings>", Checker.Options.defaults(200_000)).verdict()
        instanceof Verdict.Safe);
    return safe.flatMap(d -> faults.flatMap(spec -> Gen.longs(0, Long.MAX_VALUE).flatMap(seed -> Gen.ints(0, 2)
        .map(retries -> new FaultCase(d, spec, seed, retries)))));
  }

  @Test
  void faultsLoseNoJobAndLeaveNothingHeld() {
    PropertyRunner.assertHolds("faults lose nothing", cases(), FaultProperties::losesNothing,
        Config.defaults("faults lose nothing").withTries(TRIES));
  }

  @Test
  void aFailedJobFreesItsBuffersBeforeItsSiblingsLetItsLocksGo() {
    PropertyRunner.assertHolds("failed job's siblings", siblingCases(), FaultProperties::losesNothing,
        Config.defaults("failed job's siblings").withTries(SIBLING_TRIES));
  }

  /** One result per job, no real failure, no deadlock, nothing live or held at the end: or an AssertionError. */
  private static boolean losesNothing(FaultCase c) {
    FaultyDevice dev = new FaultyDevice(() -> new SimulatedDevice(c.design().vram()), new Faults(c.spec(), c.faultSeed(), 100_000));
    RunReport r = new Engine(dev, StepGate.FREE, 200, new RetryPolicy(c.retries(), 0, false)).run(c.design(), "<random>",
        InterpretedPipeline::new);
    int jobs = c.design().roles().stream().mapToInt(x -> x.threads() * x.jobs()).sum();
    assertThat(r.results()).as("one result per job: %s", r.results()).extracting(x -> x.job().id())
        .containsExactlyElementsOf(IntStream.range(0, jobs).boxed().toList());
    assertThat(r.results()).as("no real failure").noneMatch(x -> x instanceof JobResult.Failed || x instanceof JobResult.Aborted);
    assertThat(r.deadlock()).isEmpty();
    assertThat(r.retried()).allMatch(JobResult.Faulted.class::isInstance);
    assertThat(dev.poisoned()).isFalse();
    assertThat(r.memory().live()).as("live bytes at the end").isZero();
    assertThat(dev.current().liveBuffers(null)).isEmpty();
    assertThat(r.leftover()).as("buffers the engine had to free at shutdown").isZero();
    assertThat(r.heldAtShutdown()).as("locks and permits held after shutdown").isEmpty();
    return true;
  }
}
