package dev.interlock.impl.api;

import dev.interlock.model.step.Names;

/**
 * One unit of work for a role: a partition proof in a proving engine, one run of a role's body
 * for a design.
 *
 * <p>A pipeline runs one job per call ({@link Pipeline#runJob}); its id and payload are what the
 * pipeline needs of it, and the engine reports each job's result under it.
 *
 * @param id      unique within the run, from 0
 * @param role    the role whose workers take it
 * @param payload what the pipeline works on (a witness), or null
 */
public record Job(int id, String role, Object payload) {
  public Job {
    if (id < 0) {
      throw new IllegalArgumentException("job id must be non-negative, got " + id);
    }
    Names.require("role", role);
  }
}
