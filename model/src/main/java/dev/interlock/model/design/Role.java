package dev.interlock.model.design;

import dev.interlock.model.step.Names;
import dev.interlock.model.step.Step;
import java.util.List;

/**
 * {@code role NAME xTHREADS jobs JOBS} and its body: THREADS threads each run the body JOBS times.
 *
 * <p>JOBS {@link #FOREVER} means without end. A body's steps may nest: an {@code if free} step holds its branches.
 */
public record Role(String name, int threads, int jobs, List<Step> body) {
  /** The jobs of a role whose threads loop forever ({@code --jobs ROLE=any}): they run the body without end. */
  public static final int FOREVER = Integer.MAX_VALUE;

  public Role {
    Names.require("role", name);
    if (threads < 1) {
      throw new IllegalArgumentException("role " + name + " needs at least 1 thread, got " + threads);
    }
    if (jobs < 1) {
      throw new IllegalArgumentException("role " + name + " needs at least 1 job, got " + jobs);
    }
    body = List.copyOf(body);
    if (body.isEmpty()) {
      throw new IllegalArgumentException("role " + name + " has no steps");
    }
  }

  /** Whether the role's threads run their body without end ({@link #FOREVER} jobs). */
  public boolean loops() {
    return jobs == FOREVER;
  }

  public Role withThreads(int n) {
    return new Role(name, n, jobs, body);
  }

  public Role withJobs(int n) {
    return new Role(name, threads, n, body);
  }
}
