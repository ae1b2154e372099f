package dev.interlock.observe;

import dev.interlock.model.design.Sizes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rewrites a capture as an engine that allocates some buffers in several cudaMalloc calls would have recorded it: each
 * allocation of a size listed is its parts, one after the other, and each free of it the parts' frees.
 */
final class SplitAllocs {
  private SplitAllocs() {}

  /** Splits {@code bytes} into {@code k} parts: equal ones, the last taking the remainder. */
  static List<Long> parts(long bytes, int k) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < k - 1; i++) {
      out.add(bytes / k);
    }
    out.add(bytes - (k - 1) * (bytes / k));
    return out;
  }

  /**
   * The records with every allocation of a size in {@code parts} split into those parts (an allocation that ran out of
   * memory fails at part {@code failAt}, clamped to the last, after the earlier parts succeeded) and its frees likewise.
   * Line numbers are not renumbered.
   */
  static List<CaptureEvent> split(List<CaptureEvent> recs, Map<Long, List<Long>> parts, int failAt) {
    List<CaptureEvent> out = new ArrayList<>();
    Map<Long, List<Long>> partPtrs = new HashMap<>();
    for (CaptureEvent e : recs) {
      if (e instanceof CaptureEvent.Alloc a && parts.containsKey(a.bytes())) {
        List<Long> sizes = parts.get(a.bytes());
        int fail = a.outOfMemory() ? Math.min(failAt, sizes.size() - 1) : sizes.size();
        long base = a.outOfMemory() ? 0x7e0000000000L + a.line() * Sizes.GIB * 64 : a.ptr();
        List<Long> ptrs = new ArrayList<>();
        for (int i = 0; i < sizes.size() && i <= fail; i++) {
          boolean failed = i == fail;
          long ptr = failed ? 0 : base;
          out.add(new CaptureEvent.Alloc(a.line(), a.nanos(), a.tid(), ptr, sizes.get(i), a.async(), a.stream(),
              failed ? CaptureEvent.Alloc.OUT_OF_MEMORY : 0, a.api()));
          ptrs.add(ptr);
          base += sizes.get(i);
        }
        partPtrs.put(a.ptr(), ptrs);
      } else if (e instanceof CaptureEvent.Free f && partPtrs.containsKey(f.ptr())) {
        for (long p : partPtrs.remove(f.ptr())) {
          out.add(new CaptureEvent.Free(f.line(), f.nanos(), f.tid(), p, f.async(), f.stream(), f.rc(), f.api()));
        }
      } else {
        out.add(e);
      }
    }
    return out;
  }

  /** The mapping file lines that group these splits: {@code group BUFFER = PART ...}, sizes in bytes. */
  static String groupLines(Map<String, List<Long>> byBuffer) {
    StringBuilder sb = new StringBuilder();
    byBuffer.forEach((b, ps) -> sb.append("group ").append(b).append(" =")
        .append(ps.stream().map(p -> " " + p).reduce("", String::concat)).append('\n'));
    return sb.toString();
  }
}
