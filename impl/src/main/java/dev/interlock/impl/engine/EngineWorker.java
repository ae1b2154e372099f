package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.Worker;
import java.util.Objects;

/**
 * The engine's {@link Worker}: a thread's name, probe and the run's resources, with the crew it belongs to and the
 * job it works in, which the design interpreter needs for tasks and kept buffers.
 *
 * <p>A role thread ({@code role#i}) is a worker of its own crew and moves from job to job; a task
 * thread ({@code role#i/TASK@J}) works in the one job that spawned it.
 */
public final class EngineWorker implements Worker {
  private final String name;
  private final String role;
  private final int index;
  private final RecordingProbe probe;
  private final RunResources resources;
  private final Crew crew;
  private volatile JobScope job;

  EngineWorker(String name, String role, int index, RecordingProbe probe, RunResources resources, Crew crew) {
    this.name = Objects.requireNonNull(name, "name");
    this.role = Objects.requireNonNull(role, "role");
    this.index = index;
    this.probe = Objects.requireNonNull(probe, "probe");
    this.resources = Objects.requireNonNull(resources, "resources");
    this.crew = Objects.requireNonNull(crew, "crew");
  }

  /**
   * The engine's view of {@code worker}, which the engine made.
   *
   * @throws IllegalArgumentException for a worker the engine did not make: the pipeline asking runs only on the engine
   */
  public static EngineWorker of(Worker worker) {
    if (worker instanceof EngineWorker w) {
      return w;
    }
    throw new IllegalArgumentException("worker " + worker + " is not one of the engine's (" + worker.getClass().getName()
        + "): this pipeline runs only on the engine");
  }

  /** The thread's name: {@code role#i}, or {@code role#i/TASK@J[.k]} for a task thread. */
  @Override
  public String name() {
    return name;
  }

  @Override
  public String role() {
    return role;
  }

  /** i in {@code role#i}: the crew's index in its role. */
  @Override
  public int index() {
    return index;
  }

  @Override
  public RecordingProbe probe() {
    return probe;
  }

  @Override
  public RunResources resources() {
    return resources;
  }

  @Override
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
