package dev.interlock.observe;

import dev.interlock.model.design.Sizes;
import java.util.HashSet;
import java.util.Set;

/**
 * The real allocations of one mapping group that one thread has made so far (docs/capture-format.md, "Groups"):
 * validate and infer take the group's one design step only when the last part has come, so that every part can still
 * fail with the whole step's out-of-memory.
 */
final class GroupParts {
  private final Mapping.Group group;
  private final int firstLine;
  private final boolean async;
  private final Set<Long> ptrs = new HashSet<>();
  private int seen;
  private long observed;

  GroupParts(Mapping.Group group, int firstLine, boolean async) {
    this.group = group;
    this.firstLine = firstLine;
    this.async = async;
  }

  Mapping.Group group() {
    return group;
  }

  /** Whether an allocation of {@code bytes} is the group's next part, within the mapping's tolerance, and of its kind. */
  boolean next(Mapping map, long bytes, boolean async) {
    return seen < group.parts().size() && map.sizeMatches(bytes, group.parts().get(seen)) && async == this.async;
  }

  /** The capture line of the first part. */
  int firstLine() {
    return firstLine;
  }

  /** Counts a part that was allocated at {@code ptr} (none for a failed one). */
  void add(long ptr, long bytes, boolean allocated) {
    seen++;
    observed += bytes;
    if (allocated) {
      ptrs.add(ptr);
    }
  }

  /** How many parts have come. */
  int seen() {
    return seen;
  }

  /** Whether the next part is the last. */
  boolean last() {
    return seen == group.parts().size() - 1;
  }

  /** Whether every part has come. */
  boolean complete() {
    return seen == group.parts().size();
  }

  /** The parts' sizes as observed, added up: what the tolerance is applied to. */
  long observed() {
    return observed;
  }

  /** The live parts' pointers; the one set their frees take them out of, shared by every part. */
  Set<Long> ptrs() {
    return ptrs;
  }

  /** Where the group stands, for messages: {@code 1 of 3 parts (from run.capture:12) of group staged = ... (x.map:3)}. */
  String progress(String captureSource) {
    return seen + " of " + group.parts().size() + " parts (from " + captureSource + ":" + firstLine + ") of '" + group.text()
        + "' (" + group.where() + ")";
  }

  /** The next part, for messages: {@code a plain 4GiB allocation}. */
  String nextPart() {
    return (async ? "an async " : "a plain ") + (seen < group.parts().size() ? Sizes.format(group.parts().get(seen)) : "none")
        + " allocation";
  }
}
