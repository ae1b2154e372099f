package dev.interlock.model.trace;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Semaphore;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The knobs a check ran with, recorded in a trace so that replay rebuilds the same model.
 *
 * @param vram    device bytes
 * @param threads threads per role, in role order
 * @param jobs    jobs per thread, per role
 * @param permits initial permits per semaphore, in declaration order
 */
public record Parameters(long vram, Map<String, Integer> threads, Map<String, Integer> jobs, Map<String, Integer> permits) {
  public Parameters {
    if (vram < 1) {
      throw new IllegalArgumentException("vram must be positive, got " + vram);
    }
    threads = ordered(threads);
    jobs = ordered(jobs);
    permits = ordered(permits);
    if (threads.isEmpty() || !threads.keySet().equals(jobs.keySet())) {
      throw new IllegalArgumentException("threads and jobs must name the same roles: " + threads + " vs " + jobs);
    }
  }

  private static Map<String, Integer> ordered(Map<String, Integer> m) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }

  /** The parameters of a design as it stands. */
  public static Parameters of(Design d) {
    Map<String, Integer> threads = new LinkedHashMap<>();
    Map<String, Integer> jobs = new LinkedHashMap<>();
    for (Role r : d.roles()) {
      threads.put(r.name(), r.threads());
      jobs.put(r.name(), r.jobs());
    }
    Map<String, Integer> permits = new LinkedHashMap<>();
    for (Semaphore s : d.semaphores()) {
      permits.put(s.name(), s.permits());
    }
    return new Parameters(d.vram(), threads, jobs, permits);
  }

  /**
   * The design with these parameters applied.
   *
   * @throws IllegalArgumentException when a role or semaphore named here is not in the design
   */
  public Design applyTo(Design d) {
    Design out = d.withVram(vram);
    for (Map.Entry<String, Integer> e : threads.entrySet()) {
      out = out.withThreads(e.getKey(), e.getValue()).withJobs(e.getKey(), jobs.get(e.getKey()));
    }
    for (Map.Entry<String, Integer> e : permits.entrySet()) {
      out = out.withPermits(e.getKey(), e.getValue());
    }
    if (!Parameters.of(out).equals(this)) {
      throw new IllegalArgumentException("design " + d.name() + " has roles or semaphores the trace does not name");
    }
    return out;
  }
}
