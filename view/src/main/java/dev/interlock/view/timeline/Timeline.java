package dev.interlock.view.timeline;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A timeline independent of any file format: groups of tracks, the slices and instants on each track, and counters.
 * An engine run ({@link RunTimeline}) and a captured run ({@link CaptureTimeline}) are both turned into one, and
 * {@link ChromeTrace} is the one writer of it, so both open in Perfetto the same way.
 *
 * <p>Times are nanoseconds from the timeline's origin (its run's start). Within a track no two slices partly overlap
 * (they nest or follow one another), which is how viewers draw a track; a builder that could break this spreads its
 * slices over tracks with {@link Lanes}.
 *
 * @param groups the groups (a Chrome trace "process" each), in display order
 * @param about  facts about the run as a whole (design, source, sizes), in order; values as in {@link Args}
 */
public record Timeline(List<Group> groups, Map<String, Object> about) {
  public Timeline {
    groups = List.copyOf(groups);
    about = Args.copy(about);
  }

  /**
   * A group of tracks of one kind (threads, locks, device memory, GPU).
   *
   * @param name     shown as the group's name
   * @param tracks   its tracks, in display order
   * @param global   instants that concern every track (a deadlock), drawn across the whole timeline
   * @param counters its counter tracks
   */
  public record Group(String name, List<Track> tracks, List<Instant> global, List<Counter> counters) {
    public Group {
      requireText("group name", name);
      tracks = List.copyOf(tracks);
      global = List.copyOf(global);
      counters = List.copyOf(counters);
    }
  }

  /** A track: its name, and its slices and instants in the order they were recorded. */
  public record Track(String name, List<Mark> marks) {
    public Track {
      Objects.requireNonNull(name, "track name");
      marks = List.copyOf(marks);
    }
  }

  /** Something on a track: an interval of time or a moment. */
  public sealed interface Mark permits Slice, Instant {}

  /**
   * An interval from {@code start} to {@code end}.
   *
   * @param category what kind of slice it is (viewers can filter by it)
   */
  public record Slice(String name, String category, long start, long end, Map<String, Object> args) implements Mark {
    public Slice {
      requireText("slice name", name);
      requireText("category", category);
      if (end < start) {
        throw new IllegalArgumentException("slice " + name + " ends (" + end + ") before it starts (" + start + ")");
      }
      args = Args.copy(args);
    }
  }

  /** A moment {@code at}. */
  public record Instant(String name, String category, long at, Map<String, Object> args) implements Mark {
    public Instant {
      requireText("instant name", name);
      requireText("category", category);
      args = Args.copy(args);
    }
  }

  /**
   * A counter track: a value over time, one sample where it changes.
   *
   * @param series the name of the value (such as {@code bytes})
   */
  public record Counter(String name, String category, String series, List<Sample> samples) {
    public Counter {
      requireText("counter name", name);
      requireText("category", category);
      requireText("series", series);
      samples = List.copyOf(samples);
    }
  }

  /** The counter's value from {@code at} on. */
  public record Sample(long at, long value) {}

  /** Argument maps: ordered, of strings, whole numbers, doubles and booleans only. */
  static final class Args {
    private Args() {}

    static Map<String, Object> copy(Map<String, Object> args) {
      Map<String, Object> m = new LinkedHashMap<>();
      args.forEach((k, v) -> {
        requireText("argument name", k);
        if (!(v instanceof String || v instanceof Long || v instanceof Integer || v instanceof Double || v instanceof Boolean)) {
          throw new IllegalArgumentException("argument " + k + " is a " + (v == null ? "null" : v.getClass().getSimpleName()));
        }
        m.put(k, v);
      });
      return Collections.unmodifiableMap(m);
    }
  }

  private static void requireText(String what, String s) {
    if (s == null || s.isEmpty()) {
      throw new IllegalArgumentException(what + " is empty");
    }
  }
}
