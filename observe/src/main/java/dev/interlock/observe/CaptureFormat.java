package dev.interlock.observe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one reader and writer of capture files (docs/capture-format.md): records one a line, values percent-encoded.
 *
 * <p>Unknown events and keys are skipped, so that newer capture libraries stay readable; a last line without its
 * newline (the program crashed while it was written) is dropped with a warning.
 */
public final class CaptureFormat {
  /** The first line of every capture. */
  public static final String MAGIC = "# interlock capture v1";

  private CaptureFormat() {}

  /**
   * Reads a capture file; bad input and unreadable files throw with {@code FILE:LINE:COL: message}. Captures of any
   * size are read (a 100 MB one, 1.7 million records, takes about 10 s and a 512 MiB heap); a heap too small for one
   * is the error {@code FILE:1:1: out of Java heap ...}, since what the read allocated is garbage once it is thrown.
   */
  public static Capture read(Path file) throws CaptureFormatException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new CaptureFormatException(file.toString(), 1, 1, "cannot read: " + e.getMessage());
    } catch (OutOfMemoryError e) {
      throw outOfHeap(file);
    }
    long size = bytes.length;
    try {
      return parse(file.toString(), new String(bytes, StandardCharsets.UTF_8));
    } catch (OutOfMemoryError e) {
      bytes = null;
      throw outOfHeap(file, size);
    }
  }

  private static CaptureFormatException outOfHeap(Path file) {
    long size;
    try {
      size = Files.size(file);
    } catch (IOException | RuntimeException e) {
      size = -1;
    }
    return outOfHeap(file, size);
  }

  private static CaptureFormatException outOfHeap(Path file, long size) {
    return new CaptureFormatException(file.toString(), 1, 1, "out of Java heap reading "
        + (size >= 0 ? String.format(java.util.Locale.ROOT, "%.1f MiB", size / (1024.0 * 1024)) : "it") + " with a heap of "
        + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB: give Java about 5 times the file's size"
        + " (INTERLOCK_JAVA_OPTS=-Xmx2g)");
  }

  /** Parses capture text; {@code source} names it in messages. */
  public static Capture parse(String source, String text) throws CaptureFormatException {
    // a memory-mapped file is sized ahead of its contents: what follows the records is zero bytes
    int end = text.length();
    while (end > 0 && text.charAt(end - 1) == '\0') {
      end--;
    }
    String body = text.substring(0, end);
    List<String> lines = new ArrayList<>(List.of(body.split("\n", -1)));
    List<String> warnings = new ArrayList<>();
    String last = lines.remove(lines.size() - 1);
    if (!last.isEmpty()) {
      warnings.add(source + ":" + (lines.size() + 1) + ":1: warning: truncated last record ignored (no newline)");
    }
    if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
      throw new CaptureFormatException(source, 1, 1, "not a capture: the first line must be '" + MAGIC + "'");
    }
    if (lines.size() < 2 || !lines.get(1).startsWith("# pid=")) {
      throw new CaptureFormatException(source, 2, 1, "expected the header '# pid=PID program=PATH clock=CLOCK_MONOTONIC start_ns=NS'");
    }
    Line header = new Line(source, 2, lines.get(1));
    Map<String, Field> h = header.keys(2);
    long pid = header.number(h, "pid");
    String program = header.text(h, "program");
    long startNs = header.number(h, "start_ns");
    List<CaptureEvent> events = new ArrayList<>();
    for (int i = 2; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      CaptureEvent e = new Line(source, i + 1, l).event();
      if (e != null) {
        events.add(e);
      }
    }
    return new Capture(source, pid, program, startNs, events, warnings);
  }

  /** The header lines of a capture, each ending in a newline. */
  public static String header(long pid, String program, long startNs) {
    return MAGIC + "\n# pid=" + pid + " program=" + encode(program) + " clock=CLOCK_MONOTONIC start_ns=" + startNs + "\n";
  }

  /** One record as a line, without its newline. */
  public static String format(CaptureEvent e) {
    String rest = e.accept(new Formatter());
    return e.nanos() + " " + e.tid() + " " + rest;
  }

  /** Percent-encodes a value: {@code %}, {@code =}, space and every byte outside 0x21..0x7E. */
  public static String encode(String s) {
    StringBuilder sb = new StringBuilder();
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c < 0x21 || c > 0x7e || c == '%' || c == '=') {
        sb.append('%').append(String.format("%02X", c));
      } else {
        sb.append((char) c);
      }
    }
    return sb.toString();
  }

  /** A pointer or handle as written: {@code 0x} and lower-case hex. */
  public static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  /** A value of a record: its text (decoded) and its column. */
  private record Field(String value, int column) {}

  /** One line being read: splits it and turns its fields into a record, reporting positions. */
  private static final class Line {
    private final String source;
    private final int number;
    private final String text;

    Line(String source, int number, String text) {
      this.source = source;
      this.number = number;
      this.text = text;
    }

    private CaptureFormatException error(int column, String message) {
      return new CaptureFormatException(source, number, column, message);
    }

    /** key=value fields from the {@code first}-th space-separated token on, by key. */
    Map<String, Field> keys(int first) throws CaptureFormatException {
      Map<String, Field> out = new LinkedHashMap<>();
      boolean comment = text.startsWith("# ");
      int col = comment ? 3 : 1;
      String[] tokens = (comment ? text.substring(2) : text).split(" ", -1);
      first = comment ? 0 : first;
      for (int i = 0; i < tokens.length; i++) {
        String t = tokens[i];
        if (i >= first) {
          int eq = t.indexOf('=');
          if (eq <= 0) {
            throw error(col, "expected key=value, got '" + t + "'");
          }
          out.put(t.substring(0, eq), new Field(decode(t.substring(eq + 1), col + eq + 1), col + eq + 1));
        }
        col += t.length() + 1;
      }
      return out;
    }

    CaptureEvent event() throws CaptureFormatException {
      String[] tokens = text.split(" ", -1);
      if (tokens.length < 3) {
        throw error(1, "expected 'NS TID EVENT key=value...', got '" + text + "'");
      }
      long ns = parseLong(tokens[0], 1, "timestamp");
      long tid = parseLong(tokens[1], tokens[0].length() + 2, "thread id");
      String ev = tokens[2];
      int evCol = tokens[0].length() + tokens[1].length() + 3;
      Map<String, Field> k = keys(3);
      return switch (ev) {
        case "thread_start" -> new CaptureEvent.ThreadStart(number, ns, tid, number(k, "child", evCol), rc(k, evCol));
        case "thread_join" -> new CaptureEvent.ThreadJoin(number, ns, tid, number(k, "child", evCol), rc(k, evCol));
        case "thread_name" -> new CaptureEvent.ThreadName(number, ns, tid, text(k, "name", evCol),
            k.containsKey("tid_named") ? number(k, "tid_named", evCol) : tid);
        case "lock" -> acquire(CaptureEvent.AcquireKind.LOCK, ns, tid, k, evCol, true);
        case "trylock" -> acquire(CaptureEvent.AcquireKind.TRYLOCK, ns, tid, k, evCol, true);
        case "timedlock" -> acquire(CaptureEvent.AcquireKind.TIMEDLOCK, ns, tid, k, evCol, true);
        case "rdlock" -> acquire(CaptureEvent.AcquireKind.RDLOCK, ns, tid, k, evCol, true);
        case "wrlock" -> acquire(CaptureEvent.AcquireKind.WRLOCK, ns, tid, k, evCol, true);
        case "sem_wait" -> acquire(CaptureEvent.AcquireKind.SEM_WAIT, ns, tid, k, evCol, true);
        case "sem_trywait" -> acquire(CaptureEvent.AcquireKind.SEM_TRYWAIT, ns, tid, k, evCol, true);
        case "sem_timedwait" -> acquire(CaptureEvent.AcquireKind.SEM_TIMEDWAIT, ns, tid, k, evCol, true);
        case "sync_acquire" -> acquire(CaptureEvent.AcquireKind.SYNC_ACQUIRE, ns, tid, k, evCol, false);
        case "unlock" -> release(CaptureEvent.ReleaseKind.UNLOCK, ns, tid, k, evCol);
        case "rdunlock" -> release(CaptureEvent.ReleaseKind.RDUNLOCK, ns, tid, k, evCol);
        case "wrunlock" -> release(CaptureEvent.ReleaseKind.WRUNLOCK, ns, tid, k, evCol);
        case "sem_post" -> release(CaptureEvent.ReleaseKind.SEM_POST, ns, tid, k, evCol);
        case "sync_release" -> release(CaptureEvent.ReleaseKind.SYNC_RELEASE, ns, tid, k, evCol);
        case "name" -> new CaptureEvent.Name(number, ns, tid, text(k, "obj", evCol), text(k, "name", evCol));
        case "range_push" -> new CaptureEvent.RangePush(number, ns, tid, text(k, "name", evCol), text(k, "domain", evCol));
        case "range_pop" -> new CaptureEvent.RangePop(number, ns, tid, text(k, "domain", evCol));
        case "range_start" -> new CaptureEvent.RangeStart(number, ns, tid, text(k, "name", evCol), text(k, "domain", evCol),
            id(k, evCol));
        case "range_end" -> new CaptureEvent.RangeEnd(number, ns, tid, id(k, evCol));
        case "mark" -> new CaptureEvent.Mark(number, ns, tid, text(k, "name", evCol), text(k, "domain", evCol));
        case "alloc" -> new CaptureEvent.Alloc(number, ns, tid, pointer(k, "ptr", evCol), number(k, "bytes", evCol),
            flag(k, "async", evCol), text(k, "stream", evCol), rc(k, evCol), text(k, "api", evCol));
        case "free" -> new CaptureEvent.Free(number, ns, tid, pointer(k, "ptr", evCol), flag(k, "async", evCol),
            text(k, "stream", evCol), rc(k, evCol), text(k, "api", evCol));
        case "trim" -> new CaptureEvent.Trim(number, ns, tid, pointer(k, "pool", evCol), number(k, "keep", evCol), rc(k, evCol));
        case "pool_threshold" -> new CaptureEvent.PoolThreshold(number, ns, tid, pointer(k, "pool", evCol),
            threshold(k, evCol), rc(k, evCol));
        case "meminfo" -> new CaptureEvent.MemInfo(number, ns, tid, number(k, "free", evCol), number(k, "total", evCol),
            rc(k, evCol));
        case "sync" -> new CaptureEvent.Sync(number, ns, tid, rc(k, evCol), text(k, "api", evCol));
        case "sync_stream" -> new CaptureEvent.SyncStream(number, ns, tid, text(k, "stream", evCol), rc(k, evCol));
        case "launch" -> new CaptureEvent.Launch(number, ns, tid, text(k, "kernel", evCol), text(k, "stream", evCol),
            number(k, "corr", evCol), rc(k, evCol));
        case "kernel" -> {
          long start = number(k, "start_ns", evCol);
          long stop = number(k, "end_ns", evCol);
          if (stop < start) {
            throw error(k.get("end_ns").column(), "kernel ends (end_ns=" + stop + ") before it starts (start_ns=" + start + ")");
          }
          yield new CaptureEvent.KernelActivity(number, ns, tid, number(k, "corr", evCol), start, stop);
        }
        default -> null;
      };
    }

    private CaptureEvent acquire(CaptureEvent.AcquireKind kind, long ns, long tid, Map<String, Field> k, int evCol,
        boolean hasRc) throws CaptureFormatException {
      return new CaptureEvent.Acquire(number, ns, tid, kind, text(k, "obj", evCol), hasRc ? rc(k, evCol) : 0);
    }

    private CaptureEvent release(CaptureEvent.ReleaseKind kind, long ns, long tid, Map<String, Field> k, int evCol)
        throws CaptureFormatException {
      return new CaptureEvent.Release(number, ns, tid, kind, text(k, "obj", evCol));
    }

    /** A start/end range's id: positive (the library hands them out from 1). */
    private long id(Map<String, Field> k, int evCol) throws CaptureFormatException {
      long v = number(k, "id", evCol);
      if (v == 0) {
        throw error(k.get("id").column(), "id must be positive, got 0");
      }
      return v;
    }

    private Field field(Map<String, Field> k, String key, int evCol) throws CaptureFormatException {
      Field f = k.get(key);
      if (f == null) {
        throw error(evCol, "missing " + key + "=");
      }
      return f;
    }

    String text(Map<String, Field> k, String key) throws CaptureFormatException {
      return text(k, key, 3);
    }

    long number(Map<String, Field> k, String key) throws CaptureFormatException {
      return number(k, key, 3);
    }

    private String text(Map<String, Field> k, String key, int evCol) throws CaptureFormatException {
      Field f = field(k, key, evCol);
      if (f.value().isEmpty()) {
        throw error(f.column(), key + " is empty");
      }
      return f.value();
    }

    private long number(Map<String, Field> k, String key, int evCol) throws CaptureFormatException {
      Field f = field(k, key, evCol);
      long v = parseLong(f.value(), f.column(), key);
      if (v < 0) {
        throw error(f.column(), key + " must not be negative, got " + f.value());
      }
      return v;
    }

    /** A release threshold: an unsigned 64-bit count, where UINT64_MAX (never release) and anything at or above
     *  2^63 read as {@link Long#MAX_VALUE}. */
    private long threshold(Map<String, Field> k, int evCol) throws CaptureFormatException {
      Field f = field(k, "bytes", evCol);
      if (f.value().startsWith("-") || f.value().startsWith("+")) {
        throw error(f.column(), "bytes must be an unsigned decimal number, got '" + f.value() + "'");
      }
      try {
        long v = Long.parseUnsignedLong(f.value());
        return v < 0 ? Long.MAX_VALUE : v;
      } catch (NumberFormatException e) {
        throw error(f.column(), "bytes must be an unsigned decimal number, got '" + f.value() + "'");
      }
    }

    private int rc(Map<String, Field> k, int evCol) throws CaptureFormatException {
      Field f = field(k, "rc", evCol);
      long v = parseLong(f.value(), f.column(), "rc");
      if (v != (int) v) {
        throw error(f.column(), "rc out of range: " + f.value());
      }
      return (int) v;
    }

    private boolean flag(Map<String, Field> k, String key, int evCol) throws CaptureFormatException {
      Field f = field(k, key, evCol);
      return switch (f.value()) {
        case "0" -> false;
        case "1" -> true;
        default -> throw error(f.column(), key + " must be 0 or 1, got '" + f.value() + "'");
      };
    }

    private long pointer(Map<String, Field> k, String key, int evCol) throws CaptureFormatException {
      Field f = field(k, key, evCol);
      String v = f.value();
      if (!v.startsWith("0x") || v.length() < 3 || v.length() > 18) {
        throw error(f.column(), key + " must be a hex pointer 0x..., got '" + v + "'");
      }
      try {
        return Long.parseUnsignedLong(v.substring(2), 16);
      } catch (NumberFormatException e) {
        throw error(f.column(), key + " must be a hex pointer 0x..., got '" + v + "'");
      }
    }

    private long parseLong(String s, int column, String what) throws CaptureFormatException {
      try {
        return Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw error(column, what + " must be a decimal number, got '" + s + "'");
      }
    }

    private String decode(String s, int column) throws CaptureFormatException {
      if (s.indexOf('%') < 0) {
        return s;
      }
      byte[] out = new byte[s.length()];
      int n = 0;
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '%') {
          if (i + 2 >= s.length()) {
            throw error(column + i, "incomplete percent escape");
          }
          int hi = Character.digit(s.charAt(i + 1), 16);
          int lo = Character.digit(s.charAt(i + 2), 16);
          if (hi < 0 || lo < 0) {
            throw error(column + i, "bad percent escape '" + s.substring(i, i + 3) + "'");
          }
          out[n++] = (byte) (hi * 16 + lo);
          i += 2;
        } else {
          out[n++] = (byte) c;
        }
      }
      return new String(out, 0, n, StandardCharsets.UTF_8);
    }
  }

  /** The part of a record after NS and TID. */
  private static final class Formatter implements CaptureEvent.Visitor<String> {
    public String threadStart(CaptureEvent.ThreadStart e) {
      return "thread_start child=" + e.child() + " rc=" + e.rc();
    }

    public String threadJoin(CaptureEvent.ThreadJoin e) {
      return "thread_join child=" + e.child() + " rc=" + e.rc();
    }

    public String threadName(CaptureEvent.ThreadName e) {
      return "thread_name name=" + encode(e.name()) + (e.named() != e.tid() ? " tid_named=" + e.named() : "");
    }

    public String acquire(CaptureEvent.Acquire e) {
      return e.kind().event() + " obj=" + encode(e.obj()) + (e.kind() == CaptureEvent.AcquireKind.SYNC_ACQUIRE ? "" : " rc=" + e.rc());
    }

    public String release(CaptureEvent.Release e) {
      return e.kind().event() + " obj=" + encode(e.obj());
    }

    public String name(CaptureEvent.Name e) {
      return "name obj=" + encode(e.obj()) + " name=" + encode(e.name());
    }

    public String rangePush(CaptureEvent.RangePush e) {
      return "range_push name=" + encode(e.name()) + " domain=" + encode(e.domain());
    }

    public String rangePop(CaptureEvent.RangePop e) {
      return "range_pop domain=" + encode(e.domain());
    }

    public String rangeStart(CaptureEvent.RangeStart e) {
      return "range_start name=" + encode(e.name()) + " domain=" + encode(e.domain()) + " id=" + e.id();
    }

    public String rangeEnd(CaptureEvent.RangeEnd e) {
      return "range_end id=" + e.id();
    }

    public String mark(CaptureEvent.Mark e) {
      return "mark name=" + encode(e.name()) + " domain=" + encode(e.domain());
    }

    public String alloc(CaptureEvent.Alloc e) {
      return "alloc ptr=" + hex(e.ptr()) + " bytes=" + e.bytes() + " async=" + (e.async() ? 1 : 0) + " stream="
          + encode(e.stream()) + " rc=" + e.rc() + " api=" + encode(e.api());
    }

    public String free(CaptureEvent.Free e) {
      return "free ptr=" + hex(e.ptr()) + " async=" + (e.async() ? 1 : 0) + " stream=" + encode(e.stream()) + " rc="
          + e.rc() + " api=" + encode(e.api());
    }

    public String trim(CaptureEvent.Trim e) {
      return "trim pool=" + hex(e.pool()) + " keep=" + e.keep() + " rc=" + e.rc();
    }

    public String poolThreshold(CaptureEvent.PoolThreshold e) {
      return "pool_threshold pool=" + hex(e.pool()) + " bytes=" + e.bytes() + " rc=" + e.rc();
    }

    public String memInfo(CaptureEvent.MemInfo e) {
      return "meminfo free=" + e.free() + " total=" + e.total() + " rc=" + e.rc();
    }

    public String sync(CaptureEvent.Sync e) {
      return "sync rc=" + e.rc() + " api=" + encode(e.api());
    }

    public String syncStream(CaptureEvent.SyncStream e) {
      return "sync_stream stream=" + encode(e.stream()) + " rc=" + e.rc();
    }

    public String launch(CaptureEvent.Launch e) {
      return "launch kernel=" + encode(e.kernel()) + " stream=" + encode(e.stream()) + " corr=" + e.corr() + " rc=" + e.rc();
    }

    public String kernelActivity(CaptureEvent.KernelActivity e) {
      return "kernel corr=" + e.corr() + " start_ns=" + e.startNs() + " end_ns=" + e.endNs();
    }
  }
}
