package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import java.util.Objects;

/**
 * What a pipeline gets for running a job: its thread's name, probe, the shared resources, the crew
 * it belongs to and the job it works in.
 *
 * <p>A role thread ({@code role#i}) is a worker of its own crew and moves from job to job; a task
 * thread ({@code role#i/TASK@J}) works in the one job that spawned it.
 */
public final class Worker {
  private final String name;
  private final String role;
  private final int index;
  private final Probe probe;
  private final Resources resources;
  private final Crew crew;
  private volatile JobScope job;

  Worker(String name, String role, int index, Probe probe, Resources resources, Crew crew) {
    this.name = Objects.requireNonNull(name, "name");
    this.role = Objects.requireNonNull(role, "role");
    this.index = index;
    this.probe = Objects.requireNonNull(probe, "probe");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.crew = Objects.requireNonNull(crew, "crew");
  }

  /** The thread's name: {@code role#i}, or {@code role#i/TASK@J[.k]} for a task thread. */
  public String name() {
    return name;
  }

  public String role() {
    return role;
  }

  /** i in {@code role#i}: the crew's index in its role. */
  public int index() {
    return index;
  }

  public Probe probe() {
    return probe;
  }

  public Resources resources() {
    return resources;
  }

  public Device device() {
    return resources.device();
  }

  /** The role thread and tasks this thread belongs to, with their kept buffers. */
  public Crew crew() {
    return crew;
  }

  /** The job this thread works in now. */
  public JobScope job() {
    JobScope j = job;
    if (j == null) {
      throw new IllegalStateException(name + " is not working in a job");
    }
    return j;
  }

  void enter(JobScope scope) {
    job = scope;
  }

  @Override
  public String toString() {
    return name;
  }
}
