package dev.interlock.model.check;

import dev.interlock.model.step.Names;

/**
 * "Can a thread be inside interval a while a thread of another worker is inside interval b?"
 *
 * <p>A worker is a role thread with the task threads its jobs spawn: the question is about the
 * next worker's work. With {@code sameWorker}, pairs within one worker count too.
 */
public record OverlapQuery(String a, String b, boolean sameWorker) {
  public OverlapQuery {
    Names.require("interval", a);
    Names.require("interval", b);
  }

  /** The query across different workers. */
  public OverlapQuery(String a, String b) {
    this(a, b, false);
  }
}
