package dev.interlock.observe;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Names;
import dev.interlock.model.step.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a captured run's objects map onto a design's (docs/capture-format.md, "Mapping file"): object names, threads,
 * allocations to ignore, allocations grouped into one design allocation, and the size tolerance.
 *
 * @param objects      capture object ({@code mutex@0x...}) or NVTX name, to design mutex or semaphore
 * @param threads      OS thread id to a role name or a model thread name ({@code role#i})
 * @param ignoredSizes allocations of these sizes (and their frees) are not part of the design
 * @param tolerance    an observed size matches a design size within this many bytes ...
 * @param percent      ... or within this percentage of the design size
 * @param ignoredThreads threads, by OS thread id or by their NVTX or pthread name, whose every record is left out
 *                     (a program's main thread that sets the device up: a VRAM ballast, warm-up allocations)
 * @param groups       design buffer to the real allocations that together are its one {@code alloc} step
 * @param ignoredObjects mutexes and semaphores, by capture object or NVTX name, that are not part of the design (a job
 *                     queue's mutex that only hands out jobs): their records are no steps
 * @param deviceBuffers a design's device buffer ({@code buffer NAME SIZE}, held from the start) to the size of the
 *                     allocation by which the engine makes it, once, when it first needs it: that allocation is no step
 *                     (its size is among {@code ignoredSizes}), and infer declares the buffer
 */
public record Mapping(Map<String, String> objects, Map<Long, String> threads, Set<Long> ignoredSizes, long tolerance,
    double percent, Set<String> ignoredThreads, Map<String, Group> groups, Set<String> ignoredObjects,
    Map<String, DeviceBuffer> deviceBuffers) {
  /** No mapping: names from the capture, exact sizes. */
  public static final Mapping NONE = new Mapping(Map.of(), Map.of(), Set.of(), 0, 0);

  /** A mapping that leaves out no thread. */
  public Mapping(Map<String, String> objects, Map<Long, String> threads, Set<Long> ignoredSizes, long tolerance,
      double percent) {
    this(objects, threads, ignoredSizes, tolerance, percent, Set.of());
  }

  /** A mapping without groups. */
  public Mapping(Map<String, String> objects, Map<Long, String> threads, Set<Long> ignoredSizes, long tolerance,
      double percent, Set<String> ignoredThreads) {
    this(objects, threads, ignoredSizes, tolerance, percent, ignoredThreads, Map.of());
  }

  /** A mapping with no device buffers. */
  public Mapping(Map<String, String> objects, Map<Long, String> threads, Set<Long> ignoredSizes, long tolerance,
      double percent, Set<String> ignoredThreads, Map<String, Group> groups, Set<String> ignoredObjects) {
    this(objects, threads, ignoredSizes, tolerance, percent, ignoredThreads, groups, ignoredObjects, Map.of());
  }

  /** A mapping that ignores no mutex or semaphore. */
  public Mapping(Map<String, String> objects, Map<Long, String> threads, Set<Long> ignoredSizes, long tolerance,
      double percent, Set<String> ignoredThreads, Map<String, Group> groups) {
    this(objects, threads, ignoredSizes, tolerance, percent, ignoredThreads, groups, Set.of());
  }

  public Mapping {
    deviceBuffers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(deviceBuffers));
    for (DeviceBuffer d : deviceBuffers.values()) {
      if (!ignoredSizes.contains(d.bytes())) {
        throw new IllegalArgumentException("device buffer " + d.buffer() + "'s allocation must be among the ignored sizes");
      }
    }
    ignoredObjects = Set.copyOf(ignoredObjects);
    objects = Map.copyOf(objects);
    threads = Map.copyOf(threads);
    ignoredSizes = Set.copyOf(ignoredSizes);
    ignoredThreads = Set.copyOf(ignoredThreads);
    groups = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(groups));
    if (tolerance < 0 || percent < 0 || percent >= 100) {
      throw new IllegalArgumentException("tolerance must be >= 0 bytes and in [0, 100) percent");
    }
    groups.forEach((b, g) -> {
      if (!g.buffer().equals(b)) {
        throw new IllegalArgumentException("group " + g.buffer() + " filed under " + b);
      }
    });
  }

  /**
   * A mapping file's {@code device BUFFER = SIZE}: the design's device buffer is the engine's one allocation of SIZE.
   *
   * @param buffer the design's device buffer ({@code buffer NAME SIZE})
   * @param bytes  the engine's allocation
   * @param source the mapping file, for messages
   * @param line   the line in it
   */
  public record DeviceBuffer(String buffer, long bytes, String source, int line) {
    public DeviceBuffer {
      Names.require("buffer", buffer);
      if (bytes < 1) {
        throw new IllegalArgumentException("device buffer " + buffer + " needs a positive size, got " + bytes);
      }
      java.util.Objects.requireNonNull(source, "source");
    }
  }

  /**
   * A mapping file's {@code group BUFFER = SIZE SIZE ...}: the design's one {@code alloc BUFFER} is these real
   * allocations, by one thread, in this order; its {@code free BUFFER} is their frees.
   *
   * @param buffer the design buffer
   * @param parts  the real allocations' sizes, in the order the engine makes them
   * @param source the mapping file, for messages
   * @param line   the group's line in it
   */
  public record Group(String buffer, List<Long> parts, String source, int line) {
    public Group {
      Names.require("buffer", buffer);
      parts = List.copyOf(parts);
      if (parts.isEmpty() || parts.stream().anyMatch(p -> p < 1)) {
        throw new IllegalArgumentException("group " + buffer + " needs one or more positive sizes, got " + parts);
      }
      java.util.Objects.requireNonNull(source, "source");
    }

    /** The sizes the parts add up to: what the design's step allocates. */
    public long total() {
      return parts.stream().mapToLong(Long::longValue).sum();
    }

    /** {@code FILE:LINE} of the group line. */
    public String where() {
      return source + ":" + line;
    }

    /** The group as written, sizes in the project's syntax: {@code group staged = 4GiB 4GiB 4GiB}. */
    public String text() {
      return "group " + buffer + " = " + String.join(" ", parts.stream().map(Sizes::format).toList());
    }
  }

  /** The group of design buffer {@code buffer}, if the mapping groups it. */
  public java.util.Optional<Group> group(String buffer) {
    return java.util.Optional.ofNullable(groups.get(buffer));
  }

  /**
   * Checks the mapping against the design it maps onto; else {@code FILE:LINE:1: message} at the mapping's line. Each
   * device line names a device buffer the design declares, of its size within the tolerance; each group names a buffer
   * the design allocates, and its parts add up to every allocation of it, within the tolerance.
   */
  public void checkAgainst(Design design) throws CaptureFormatException {
    for (DeviceBuffer d : deviceBuffers.values()) {
      var declared = design.buffers().stream().filter(b -> b.name().equals(d.buffer())).findFirst();
      if (declared.isEmpty()) {
        throw new CaptureFormatException(d.source(), d.line(), 1,
            "device " + d.buffer() + ": design " + design.name() + " declares no 'buffer " + d.buffer() + " SIZE'");
      }
      if (!sizeMatches(d.bytes(), declared.get().bytes())) {
        throw new CaptureFormatException(d.source(), d.line(), 1, "device " + d.buffer() + " = "
            + Sizes.format(d.bytes()) + ", but design " + design.name() + " declares 'buffer " + d.buffer() + " "
            + Sizes.format(declared.get().bytes()) + "'");
      }
    }
    for (Group g : groups.values()) {
      List<Alloc> allocs = new ArrayList<>();
      for (Step s : design.steps()) {
        if (s instanceof Alloc a && a.buffer().equals(g.buffer())) {
          allocs.add(a);
        }
      }
      if (allocs.isEmpty()) {
        throw new CaptureFormatException(g.source(), g.line(), 1,
            "group " + g.buffer() + ": design " + design.name() + " allocates no buffer '" + g.buffer() + "'");
      }
      for (Alloc a : allocs) {
        if (!sizeMatches(g.total(), a.bytes())) {
          throw new CaptureFormatException(g.source(), g.line(), 1, "group " + g.buffer() + ": its parts add up to "
              + Sizes.format(g.total()) + ", but design " + design.name() + " has '" + a.text() + "'"
              + (tolerance > 0 || percent > 0 ? " (beyond the tolerance)" : " (the default tolerance is exact)"));
        }
      }
    }
  }

  /** Whether the mapping leaves out mutex or semaphore {@code objOrName} (a capture object, or its NVTX or mapped name). */
  public boolean ignoresObject(String objOrName) {
    return ignoredObjects.contains(objOrName);
  }

  /** Whether an observed size stands for a design size. */
  public boolean sizeMatches(long observed, long design) {
    long slack = Math.max(tolerance, (long) Math.floor(design * percent / 100.0));
    return Math.abs(observed - design) <= slack;
  }

  /**
   * {@code capture} without the records of the threads this mapping leaves out (by id, or by a thread_name record).
   * Their NVTX naming records stay: a name is process-wide (a main thread names the workers' mutexes), not an action.
   */
  public Capture withoutIgnoredThreads(Capture capture) {
    if (ignoredThreads.isEmpty()) {
      return capture;
    }
    Set<Long> out = new java.util.HashSet<>();
    for (CaptureEvent e : capture.events()) {
      if (ignoredThreads.contains(Long.toString(e.tid()))) {
        out.add(e.tid());
      }
      if (e instanceof CaptureEvent.ThreadName n && ignoredThreads.contains(n.name())) {
        out.add(n.named());
      }
    }
    return new Capture(capture.source(), capture.pid(), capture.program(), capture.startNs(),
        capture.events().stream().filter(e -> !out.contains(e.tid()) || names(e, out)).toList(), capture.warnings());
  }

  /** Whether {@code e} names an object, or a thread that is not left out. */
  private static boolean names(CaptureEvent e, Set<Long> out) {
    return e instanceof CaptureEvent.Name || e instanceof CaptureEvent.ThreadName n && !out.contains(n.named());
  }

  /** Reads a mapping file; bad lines throw {@code FILE:LINE:COL: message}. */
  public static Mapping read(Path file) throws CaptureFormatException {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new CaptureFormatException(file.toString(), 1, 1, "cannot read: " + e.getMessage());
    }
    return parse(file.toString(), text);
  }

  /** Parses mapping text; {@code source} names it in messages. */
  public static Mapping parse(String source, String text) throws CaptureFormatException {
    Map<String, String> objects = new LinkedHashMap<>();
    Map<Long, String> threads = new LinkedHashMap<>();
    Set<Long> ignored = new LinkedHashSet<>();
    Set<String> ignoredThreads = new LinkedHashSet<>();
    Set<String> ignoredObjects = new LinkedHashSet<>();
    Map<Long, String> ignoredBy = new HashMap<>(); // an ignored size -> the first line that ignores it, for messages
    Map<String, Group> groups = new LinkedHashMap<>();
    Map<String, List<Integer>> partColumns = new HashMap<>();
    Map<String, DeviceBuffer> devices = new LinkedHashMap<>();
    long tolerance = 0;
    double percent = 0;
    List<String> lines = List.of(text.split("\n", -1));
    for (int i = 0; i < lines.size(); i++) {
      String raw = lines.get(i);
      int hash = raw.indexOf('#');
      // '#' also appears in thread names (role#i): a comment starts only at a '#' at the line start or after a space
      while (hash > 0 && raw.charAt(hash - 1) != ' ') {
        hash = raw.indexOf('#', hash + 1);
      }
      String l = hash >= 0 ? raw.substring(0, hash) : raw;
      int indent = l.length() - l.stripLeading().length();
      l = l.strip();
      if (l.isEmpty()) {
        continue;
      }
      int line = i + 1;
      int col = indent + 1;
      String[] w = l.split("\\s+");
      if (w[0].equals("ignore")) {
        if (w.length == 3 && w[1].equals("thread")) {
          ignoredThreads.add(w[2]);
          continue;
        }
        if (w.length == 3 && (w[1].equals("mutex") || w[1].equals("semaphore"))) {
          ignoredObjects.add(w[2]);
          continue;
        }
        if (w.length != 3 || !w[1].equals("alloc")) {
          throw new CaptureFormatException(source, line, col,
              "expected 'ignore alloc SIZE', 'ignore thread TID|NAME' or 'ignore mutex|semaphore OBJ|NAME'");
        }
        long bytes = size(source, line, col + l.indexOf(w[2]), w[2]);
        ignored.add(bytes);
        ignoredBy.putIfAbsent(bytes, "'ignore alloc' on line " + line);
      } else if (w[0].equals("group")) {
        if (w.length < 3 || !w[2].equals("=") || !Names.isIdentifier(w[1])) {
          throw new CaptureFormatException(source, line, col, "expected 'group BUFFER = SIZE SIZE ...' (BUFFER a design buffer)");
        }
        if (w.length == 3) {
          throw new CaptureFormatException(source, line, col + l.length(),
              "group " + w[1] + " is empty: list the sizes of the real allocations that make up the design's alloc " + w[1]);
        }
        List<Long> parts = new ArrayList<>();
        List<Integer> columns = new ArrayList<>();
        int at = l.indexOf('=') + 1;
        for (int k = 3; k < w.length; k++) {
          at = l.indexOf(w[k], at);
          columns.add(col + at);
          long part = size(source, line, col + at, w[k]);
          if (part < 1) {
            throw new CaptureFormatException(source, line, col + at, "a part of group " + w[1] + " must be at least 1 byte, got '" + w[k] + "'");
          }
          parts.add(part);
          at += w[k].length();
        }
        if (groups.put(w[1], new Group(w[1], parts, source, line)) != null) {
          throw new CaptureFormatException(source, line, col, "buffer " + w[1] + " is grouped twice");
        }
        partColumns.put(w[1], columns);
      } else if (w[0].equals("device")) {
        if (w.length != 4 || !w[2].equals("=") || !Names.isIdentifier(w[1])) {
          throw new CaptureFormatException(source, line, col, "expected 'device BUFFER = SIZE' (BUFFER a design's device buffer)");
        }
        long bytes = size(source, line, col + l.lastIndexOf(w[3]), w[3]);
        if (bytes < 1) {
          throw new CaptureFormatException(source, line, col + l.lastIndexOf(w[3]), "a device buffer is at least 1 byte, got '" + w[3] + "'");
        }
        if (devices.put(w[1], new DeviceBuffer(w[1], bytes, source, line)) != null) {
          throw new CaptureFormatException(source, line, col, "device buffer " + w[1] + " is mapped twice");
        }
        ignored.add(bytes);
        ignoredBy.putIfAbsent(bytes, "'device " + w[1] + "' on line " + line);
      } else if (w[0].equals("tolerance")) {
        if (w.length != 2) {
          throw new CaptureFormatException(source, line, col, "expected 'tolerance SIZE' or 'tolerance N%'");
        }
        int vc = col + l.indexOf(w[1]);
        if (w[1].endsWith("%")) {
          try {
            percent = Double.parseDouble(w[1].substring(0, w[1].length() - 1));
          } catch (NumberFormatException e) {
            throw new CaptureFormatException(source, line, vc, "bad percentage '" + w[1] + "'");
          }
          if (!(percent >= 0 && percent < 100)) { // NaN too
            throw new CaptureFormatException(source, line, vc, "a tolerance percentage is in [0, 100), got " + w[1]);
          }
        } else {
          tolerance = size(source, line, vc, w[1]);
        }
      } else if (w[0].equals("thread")) {
        if (w.length != 4 || !w[2].equals("=")) {
          throw new CaptureFormatException(source, line, col, "expected 'thread TID = ROLE' or 'thread TID = ROLE#I'");
        }
        long tid;
        try {
          tid = Long.parseLong(w[1]);
        } catch (NumberFormatException e) {
          throw new CaptureFormatException(source, line, col + l.indexOf(w[1], 6), "thread id must be a number, got '" + w[1] + "'");
        }
        if (threads.put(tid, w[3]) != null) {
          throw new CaptureFormatException(source, line, col, "thread " + tid + " is mapped twice");
        }
      } else if (w.length == 3 && w[1].equals("=")) {
        if (objects.put(w[0], w[2]) != null) {
          throw new CaptureFormatException(source, line, col, w[0] + " is mapped twice");
        }
      } else {
        throw new CaptureFormatException(source, line, col,
            "expected 'OBJ = NAME', 'thread TID = ROLE', 'ignore alloc SIZE', 'ignore thread TID|NAME', 'group BUFFER = SIZE ...',"
                + " 'device BUFFER = SIZE' or 'tolerance SIZE|N%', got '" + l + "'");
      }
    }
    for (Group g : groups.values()) {
      for (int k = 0; k < g.parts().size(); k++) {
        String at = ignoredBy.get(g.parts().get(k));
        if (at != null) {
          throw new CaptureFormatException(source, g.line(), partColumns.get(g.buffer()).get(k), "part "
              + Sizes.format(g.parts().get(k)) + " of group " + g.buffer() + " is also ignored (" + at + ")");
        }
      }
    }
    return new Mapping(objects, threads, ignored, tolerance, percent, ignoredThreads, groups, ignoredObjects, devices);
  }

  private static long size(String source, int line, int col, String text) throws CaptureFormatException {
    if (!text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new CaptureFormatException(source, line, col, "size '" + text + "' is too large (at most " + Long.MAX_VALUE + " bytes)");
      }
    }
    try {
      return Sizes.parseOrThrow(text);
    } catch (IllegalArgumentException e) {
      throw new CaptureFormatException(source, line, col, "bad size '" + text + "' (bytes, or e.g. 12GiB)");
    }
  }
}
