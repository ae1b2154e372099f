package dev.interlock.view.timeline;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.impl.api.KernelTiming;
import dev.interlock.impl.engine.RunReport;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Writes a {@link Timeline} as a Chrome trace event file (JSON object format), which ui.perfetto.dev and
 * chrome://tracing open: the one writer of timelines, whatever run they come from.
 *
 * <p>Each group is a "process" (pid = its position, from 1) and each track a "thread" of it; thread ids are unique
 * across processes, so that no viewer merges two tracks. A slice is a complete event ("X"), an instant an "i" event
 * of its thread (a group's global instants: of the whole trace), a counter's samples "C" events. Times are
 * microseconds written with all nanosecond digits. {@code about} becomes {@code otherData}.
 */
public final class ChromeTrace {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

  private final ArrayNode out = JsonNodeFactory.instance.arrayNode();

  private ChromeTrace() {}

  /** The file of {@code timeline}, as a JSON tree. */
  public static ObjectNode of(Timeline timeline) {
    ChromeTrace t = new ChromeTrace();
    int tid = 0;
    for (int g = 0; g < timeline.groups().size(); g++) {
      tid = t.group(g + 1, timeline.groups().get(g), tid);
    }
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("displayTimeUnit", "ms");
    root.set("traceEvents", t.out);
    args(root.putObject("otherData"), timeline.about());
    return root;
  }

  /** {@link #of(Timeline)} as JSON text, ending in a newline. */
  public static String json(Timeline timeline) {
    try {
      return MAPPER.writeValueAsString(of(timeline)) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write a timeline", e);
    }
  }

  /** The timeline of an engine run ({@link RunTimeline#of}), as JSON text. */
  public static String json(RunReport report, List<KernelTiming> kernels) {
    return json(RunTimeline.of(report, kernels));
  }

  /** Writes group {@code g} as process {@code pid}, its tracks numbered after {@code lastTid}; the last tid used. */
  private int group(int pid, Timeline.Group g, int lastTid) {
    metadata("process", pid, OptionalInt.empty(), g.name(), pid);
    int first = lastTid + 1;
    for (Timeline.Track track : g.tracks()) {
      ++lastTid;
      metadata("thread", pid, OptionalInt.of(lastTid), track.name(), lastTid);
    }
    for (int i = 0; i < g.tracks().size(); i++) {
      for (Timeline.Mark m : g.tracks().get(i).marks()) {
        mark(pid, first + i, m, "t");
      }
    }
    for (Timeline.Instant i : g.global()) {
      mark(pid, 0, i, "g");
    }
    for (Timeline.Counter c : g.counters()) {
      for (Timeline.Sample s : c.samples()) {
        event("C", pid, 0, c.name(), c.category(), s.at()).putObject("args").put(c.series(), s.value());
      }
    }
    return lastTid;
  }

  private void mark(int pid, int tid, Timeline.Mark m, String scope) {
    if (m instanceof Timeline.Slice s) {
      ObjectNode e = event("X", pid, tid, s.name(), s.category(), s.start());
      e.put("dur", micros(s.end() - s.start()));
      args(e.putObject("args"), s.args());
    } else {
      Timeline.Instant i = (Timeline.Instant) m;
      ObjectNode e = event("i", pid, tid, i.name(), i.category(), i.at());
      e.put("s", scope);
      args(e.putObject("args"), i.args());
    }
  }

  private static void args(ObjectNode node, Map<String, Object> args) {
    args.forEach((k, v) -> {
      if (v instanceof String s) {
        node.put(k, s);
      } else if (v instanceof Long l) {
        node.put(k, l);
      } else if (v instanceof Integer i) {
        node.put(k, i);
      } else if (v instanceof Double d) {
        node.put(k, d);
      } else {
        node.put(k, (Boolean) v);
      }
    });
  }

  private ObjectNode event(String ph, int pid, int tid, String name, String cat, long nanos) {
    ObjectNode e = out.addObject();
    e.put("name", name);
    e.put("cat", cat);
    e.put("ph", ph);
    e.put("ts", micros(nanos));
    e.put("pid", pid);
    e.put("tid", tid);
    return e;
  }

  /** A track's name and sort index: {@code what}_name and {@code what}_sort_index records of a process or a thread. */
  private void metadata(String what, int pid, OptionalInt tid, String name, int sortIndex) {
    ObjectNode m = out.addObject();
    m.put("name", what + "_name");
    m.put("ph", "M");
    m.put("pid", pid);
    tid.ifPresent(t -> m.put("tid", t));
    m.putObject("args").put("name", name);
    ObjectNode o = out.addObject();
    o.put("name", what + "_sort_index");
    o.put("ph", "M");
    o.put("pid", pid);
    tid.ifPresent(t -> o.put("tid", t));
    o.putObject("args").put("sort_index", sortIndex);
  }

  /** Nanoseconds as microseconds with all nine digits kept, written plain. */
  private static BigDecimal micros(long nanos) {
    return BigDecimal.valueOf(nanos, 3);
  }
}
