package dev.interlock.observe;

import dev.interlock.model.design.Sizes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a captured run's objects map onto a design's (docs/capture-format.md, "Mapping file"): object names, threads,
 * allocations to ignore and the size tolerance.
 *
 * @param objects      capture object ({@code mutex@0x...}) or NVTX name, to design mutex or semaphore
 * @param threads      OS thread id to a role name or a model thread name ({@code role#i})
 * @param ignoredSizes allocations of these sizes (and their frees) are not part of the design
 * @param tolerance    an observed size matches a design size within this many bytes ...
 * @param percent      ... or within this percentage of the design size
 * @param ignoredThreads threads, by OS thread id or by their NVTX or pthread name, whose every record is left out
 *                     (a program's main thread that sets the device up: a VRAM ballast, warm-up allocations)
 */
public record Mapping(Map<String, String> objects, Map<Long, String> threads, Set<Long> ignoredSizes, long tolerance,
    double percent, Set<String> ignoredThreads) {
  /** No mapping: names from the capture, exact sizes. */
  public static final Mapping NONE = new Mapping(Map.of(), Map.of(), Set.of(), 0, 0);

  /** A mapping that leaves out no thread. */
  public Mapping(Map<String, String> objects, Map<Long, String> threads, Set<Long> ignoredSizes, long tolerance,
      double percent) {
    this(objects, threads, ignoredSizes, tolerance, percent, Set.of());
  }

  public Mapping {
    objects = Map.copyOf(objects);
    threads = Map.copyOf(threads);
    ignoredSizes = Set.copyOf(ignoredSizes);
    ignoredThreads = Set.copyOf(ignoredThreads);
    if (tolerance < 0 || percent < 0 || percent >= 100) {
      throw new IllegalArgumentException("tolerance must be >= 0 bytes and in [0, 100) percent");
    }
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
        if (w.length != 3 || !w[1].equals("alloc")) {
          throw new CaptureFormatException(source, line, col, "expected 'ignore alloc SIZE' or 'ignore thread TID|NAME'");
        }
        ignored.add(size(source, line, col + l.indexOf(w[2]), w[2]));
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
          if (percent < 0 || percent >= 100) {
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
            "expected 'OBJ = NAME', 'thread TID = ROLE', 'ignore alloc SIZE', 'ignore thread TID|NAME' or 'tolerance SIZE|N%', got '"
                + l + "'");
      }
    }
    return new Mapping(objects, threads, ignored, tolerance, percent, ignoredThreads);
  }

  private static long size(String source, int line, int col, String text) throws CaptureFormatException {
    if (text.chars().allMatch(Character::isDigit)) {
      return Long.parseLong(text);
    }
    try {
      return Sizes.parseOrThrow(text);
    } catch (IllegalArgumentException e) {
      throw new CaptureFormatException(source, line, col, "bad size '" + text + "' (bytes, or e.g. 12GiB)");
    }
  }
}
