package dev.interlock.observe;

import dev.interlock.model.design.Sizes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Compares the device calls an engine logged ({@link DeviceCallFile}) with a capture of the same run, call for call:
 * per thread, in order, every allocation (size, async, return code: 2 is the driver's OOM), free (of the allocation it
 * frees: the capture's free must free the capture's allocation paired with the engine's), trim, pool threshold,
 * cuMemGetInfo (the figures it returned), synchronization and kernel launch (by kernel name). Other records (locks,
 * NVTX, kernel activity) are not compared.
 *
 * <p>Threads are paired by name: the engine's Java thread name, cut to the 15 bytes a native thread name holds (the
 * JVM names its threads with pthread_setname_np, which the capture records), those of one name in the order of their
 * first call; a capture thread that no record names (the JVM's main thread) pairs with the one engine thread left, if
 * exactly one is. Pointers and streams differ between the sides only in how they are paired, never in value checks.
 */
public final class DeviceCallMatch {
  /** The most bytes of a native thread name (16 with its terminating zero). */
  public static final int NATIVE_NAME_BYTES = 15;

  private final Capture engine;
  private final Capture capture;

  /** Where the two sides first differ: lines in each file (0: that side has no call there) and what differs. */
  public record Mismatch(int engineLine, int captureLine, String message) {
    public Mismatch {
      Objects.requireNonNull(message, "message");
    }

    /** Both positions as {@code FILE:LINE} (or "no call"). */
    public String positions(String engineSource, String captureSource) {
      return (captureLine > 0 ? captureSource + ":" + captureLine : captureSource + ": no call") + " / "
          + (engineLine > 0 ? engineSource + ":" + engineLine : engineSource + ": no call");
    }
  }

  /** The outcome: how many calls on how many threads were compared, and the first mismatch if any. */
  public record Result(int calls, int threads, Optional<Mismatch> mismatch) {
    public Result {
      Objects.requireNonNull(mismatch, "mismatch");
    }

    /** Whether the sides agree call for call. */
    public boolean matches() {
      return mismatch.isEmpty();
    }
  }

  /** One side's device calls of one thread. */
  private record Thread(long tid, String name, List<CaptureEvent> calls) {
    int firstLine() {
      return calls.get(0).line();
    }

    String label(String side) {
      return (name == null ? "unnamed thread" : "thread " + name) + " (" + side + " tid " + tid + ")";
    }
  }

  private DeviceCallMatch(Capture engine, Capture capture) {
    this.engine = engine;
    this.capture = capture;
  }

  /** Compares {@code engine} (the engine's own calls) with {@code capture}. */
  public static Result compare(Capture engine, Capture capture) {
    return new DeviceCallMatch(engine, capture).run();
  }

  private Result run() {
    List<Thread> ours = threads(engine, true);
    List<Thread> theirs = threads(capture, false);
    List<Mismatch> found = new ArrayList<>();
    List<Thread[]> pairs = pair(ours, theirs, found);
    Map<Integer, Integer> paired = new HashMap<>(); // engine line -> capture line, of calls that agree
    int calls = 0;
    List<CaptureEvent[]> frees = new ArrayList<>();
    for (Thread[] p : pairs) {
      Thread e = p[0];
      Thread c = p[1];
      int n = Math.min(e.calls().size(), c.calls().size());
      Mismatch m = null;
      for (int i = 0; i < n && m == null; i++) {
        CaptureEvent a = e.calls().get(i);
        CaptureEvent b = c.calls().get(i);
        String why = differs(a, b);
        if (why != null) {
          m = new Mismatch(a.line(), b.line(), e.label("engine") + ", its call " + (i + 1) + ": the engine made "
              + describe(a) + ", the capture has " + describe(b) + (why.isEmpty() ? "" : " (" + why + ")"));
        } else {
          paired.put(a.line(), b.line());
          calls++;
          if (a instanceof CaptureEvent.Free) {
            frees.add(new CaptureEvent[] {a, b});
          }
        }
      }
      if (m == null && e.calls().size() > n) {
        CaptureEvent a = e.calls().get(n);
        m = new Mismatch(a.line(), 0, e.label("engine") + ", its call " + (n + 1) + ": the engine made " + describe(a)
            + ", the capture's " + c.label("capture") + " has no more device calls");
      } else if (m == null && c.calls().size() > n) {
        CaptureEvent b = c.calls().get(n);
        m = new Mismatch(0, b.line(), c.label("capture") + ", its call " + (n + 1) + ": the capture has " + describe(b)
            + ", the engine's " + e.label("engine") + " made no more device calls");
      }
      if (m != null) {
        found.add(m);
      }
    }
    Map<Integer, Integer> engineAllocOf = allocations(engine);
    Map<Integer, Integer> captureAllocOf = allocations(capture);
    for (CaptureEvent[] f : frees) {
      Integer ea = engineAllocOf.get(f[0].line());
      Integer expected = ea == null ? null : paired.get(ea);
      Integer got = captureAllocOf.get(f[1].line());
      if (!Objects.equals(expected, got)) {
        found.add(new Mismatch(f[0].line(), f[1].line(), "the engine's " + describe(f[0]) + " frees "
            + (ea == null ? "no allocation it made" : "its allocation at line " + ea + (expected == null ? "" : ", the capture's line " + expected))
            + ", the capture's " + describe(f[1]) + " frees " + (got == null ? "no allocation it recorded" : "the allocation at line " + got)));
      }
    }
    Optional<Mismatch> first = found.stream().min(Comparator.comparingInt((Mismatch m) -> m.captureLine() > 0 ? m.captureLine() : Integer.MAX_VALUE)
        .thenComparingInt(Mismatch::engineLine));
    return new Result(calls, pairs.size(), first);
  }

  /** Per thread with device calls, in order of their first call: its calls and its name (null: none recorded). */
  private static List<Thread> threads(Capture c, boolean engineSide) {
    Map<Long, String> names = new HashMap<>();
    Map<Long, List<CaptureEvent>> calls = new LinkedHashMap<>();
    for (CaptureEvent e : c.events()) {
      if (e instanceof CaptureEvent.ThreadName n) {
        if (!calls.containsKey(n.named())) { // the name a thread had when it made its first call
          names.put(n.named(), n.name());
        }
      } else if (isDeviceCall(e)) {
        calls.computeIfAbsent(e.tid(), t -> new ArrayList<>()).add(e);
      }
    }
    List<Thread> out = new ArrayList<>();
    calls.forEach((tid, list) -> {
      String name = names.get(tid);
      out.add(new Thread(tid, name == null ? null : engineSide ? nativeName(name) : name, list));
    });
    return out;
  }

  /** A Java thread's name as its native thread is named: cut to {@link #NATIVE_NAME_BYTES} bytes of UTF-8. */
  public static String nativeName(String name) {
    byte[] b = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    if (b.length <= NATIVE_NAME_BYTES) {
      return name;
    }
    return new String(b, 0, NATIVE_NAME_BYTES, java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Pairs engine threads with capture threads (see the class comment); what cannot be paired is a mismatch. */
  private static List<Thread[]> pair(List<Thread> ours, List<Thread> theirs, List<Mismatch> found) {
    Map<String, List<Thread>> byName = new LinkedHashMap<>();
    theirs.stream().filter(t -> t.name() != null).forEach(t -> byName.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(t));
    List<Thread> unnamed = new ArrayList<>(theirs.stream().filter(t -> t.name() == null).toList());
    List<Thread[]> pairs = new ArrayList<>();
    List<Thread> left = new ArrayList<>();
    for (Thread e : ours) {
      List<Thread> same = e.name() == null ? null : byName.get(e.name());
      if (same == null || same.isEmpty()) {
        left.add(e);
      } else {
        pairs.add(new Thread[] {e, same.remove(0)});
      }
    }
    if (left.size() == 1 && unnamed.size() == 1) {
      pairs.add(new Thread[] {left.remove(0), unnamed.remove(0)});
    }
    for (Thread e : left) {
      CaptureEvent a = e.calls().get(0);
      found.add(new Mismatch(a.line(), 0, e.label("engine") + " made " + e.calls().size() + " device calls, from "
          + describe(a) + ", and no capture thread of that name made any"));
    }
    byName.values().forEach(unnamed::addAll);
    for (Thread c : unnamed) {
      CaptureEvent b = c.calls().get(0);
      found.add(new Mismatch(0, b.line(), c.label("capture") + " made " + c.calls().size() + " device calls, from "
          + describe(b) + ", and no engine thread of that name made any"));
    }
    return pairs;
  }

  /** For each successful free of a side, the line of the allocation it frees (the latest of that pointer before it). */
  private static Map<Integer, Integer> allocations(Capture c) {
    Map<Long, Integer> live = new HashMap<>();
    Map<Integer, Integer> out = new HashMap<>();
    for (CaptureEvent e : c.events()) {
      if (e instanceof CaptureEvent.Alloc a && a.rc() == 0) {
        live.put(a.ptr(), a.line());
      } else if (e instanceof CaptureEvent.Free f && f.rc() == 0) {
        Integer at = live.remove(f.ptr());
        if (at != null) {
          out.put(f.line(), at);
        }
      }
    }
    return out;
  }

  /** Whether a record is one of the device calls compared. */
  static boolean isDeviceCall(CaptureEvent e) {
    return e instanceof CaptureEvent.Alloc || e instanceof CaptureEvent.Free || e instanceof CaptureEvent.Trim
        || e instanceof CaptureEvent.PoolThreshold || e instanceof CaptureEvent.MemInfo || e instanceof CaptureEvent.Sync
        || e instanceof CaptureEvent.SyncStream || e instanceof CaptureEvent.Launch;
  }

  /** Why the capture's record {@code b} is not the engine's call {@code a} ("" for another kind), or null. */
  private static String differs(CaptureEvent a, CaptureEvent b) {
    if (a.getClass() != b.getClass()) {
      return "";
    }
    if (a instanceof CaptureEvent.Alloc x && b instanceof CaptureEvent.Alloc y) {
      return x.bytes() != y.bytes() ? "another size" : x.async() != y.async() ? "async differs" : rc(x.rc(), y.rc());
    }
    if (a instanceof CaptureEvent.Free x && b instanceof CaptureEvent.Free y) {
      return x.async() != y.async() ? "async differs" : rc(x.rc(), y.rc());
    }
    if (a instanceof CaptureEvent.Trim x && b instanceof CaptureEvent.Trim y) {
      return x.keep() != y.keep() ? "keeps other bytes" : rc(x.rc(), y.rc());
    }
    if (a instanceof CaptureEvent.PoolThreshold x && b instanceof CaptureEvent.PoolThreshold y) {
      return x.bytes() != y.bytes() ? "another threshold" : rc(x.rc(), y.rc());
    }
    if (a instanceof CaptureEvent.MemInfo x && b instanceof CaptureEvent.MemInfo y) {
      return x.free() != y.free() || x.total() != y.total() ? "other figures" : rc(x.rc(), y.rc());
    }
    if (a instanceof CaptureEvent.Sync x && b instanceof CaptureEvent.Sync y) {
      return rc(x.rc(), y.rc());
    }
    if (a instanceof CaptureEvent.SyncStream x && b instanceof CaptureEvent.SyncStream y) {
      return rc(x.rc(), y.rc());
    }
    CaptureEvent.Launch x = (CaptureEvent.Launch) a;
    CaptureEvent.Launch y = (CaptureEvent.Launch) b;
    return !x.kernel().equals(y.kernel()) ? "another kernel" : rc(x.rc(), y.rc());
  }

  private static String rc(int a, int b) {
    return a == b ? null : "another return code";
  }

  /** A device call as messages show it, e.g. {@code cuMemAlloc_v2(12GiB) = 2}. */
  static String describe(CaptureEvent e) {
    if (e instanceof CaptureEvent.Alloc a) {
      return a.api() + "(" + Sizes.format(a.bytes()) + ") = " + a.rc() + (a.rc() == 0 ? " " + CaptureFormat.hex(a.ptr()) : "");
    }
    if (e instanceof CaptureEvent.Free f) {
      return f.api() + "(" + CaptureFormat.hex(f.ptr()) + ") = " + f.rc();
    }
    if (e instanceof CaptureEvent.Trim t) {
      return "cuMemPoolTrimTo(" + t.keep() + ") = " + t.rc();
    }
    if (e instanceof CaptureEvent.PoolThreshold t) {
      return "cuMemPoolSetAttribute(release threshold " + t.bytes() + ") = " + t.rc();
    }
    if (e instanceof CaptureEvent.MemInfo m) {
      return "cuMemGetInfo = " + m.rc() + " (free " + m.free() + ", total " + m.total() + ")";
    }
    if (e instanceof CaptureEvent.Sync s) {
      return s.api() + " = " + s.rc();
    }
    if (e instanceof CaptureEvent.SyncStream s) {
      return "cuStreamSynchronize(" + s.stream() + ") = " + s.rc();
    }
    if (e instanceof CaptureEvent.Launch l) {
      return "cuLaunchKernel(" + l.kernel() + ") = " + l.rc();
    }
    return CaptureFormat.format(e);
  }
}
