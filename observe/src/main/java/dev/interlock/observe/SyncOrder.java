package dev.interlock.observe;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Puts the end of a kernel that a device-wide synchronization waited for before that synchronization, as the device
 * ran it.
 *
 * <p>{@code cudaDeviceSynchronize} (cuCtxSynchronize) returns once every kernel on the device has finished, but the
 * thread that launched one records the end of its kernel's NVTX range on the host only later, after its own stream
 * synchronization: so a capture may show another thread's {@code sync} before that range's pop. The model's {@code sync}
 * waits until no thread is inside a kernel. For each {@code sync}, a thread whose innermost open default-domain range is
 * one of the design's kernels has its records up to and including that range's pop moved to just before the
 * {@code sync}, in their own order; nothing else moves. Lines keep their numbers, so messages still point into the file.
 */
final class SyncOrder {
  private SyncOrder() {}

  /** The records of {@code events}, each kernel range a {@code sync} waited for closed before it. */
  static List<CaptureEvent> of(List<CaptureEvent> events, Set<String> kernels) {
    List<CaptureEvent> in = new ArrayList<>(events);
    List<CaptureEvent> out = new ArrayList<>(in.size());
    Map<Long, Deque<String>> open = new TreeMap<>(); // per thread, its default-domain range names, innermost first
    int i = 0;
    while (i < in.size()) {
      CaptureEvent e = in.get(i);
      if (e instanceof CaptureEvent.Sync && closeOneKernelBefore(in, i, e.tid(), open, kernels)) {
        continue; // that thread's records up to its pop now come first, then this sync again
      }
      track(open, e);
      out.add(e);
      i++;
    }
    return out;
  }

  /**
   * Moves the records of one other thread inside a kernel range, up to that range's pop, to index {@code at} (where the
   * sync is); false when no thread is inside a kernel range that it later pops.
   */
  private static boolean closeOneKernelBefore(List<CaptureEvent> in, int at, long syncing, Map<Long, Deque<String>> open,
      Set<String> kernels) {
    for (Map.Entry<Long, Deque<String>> o : open.entrySet()) {
      long tid = o.getKey();
      if (tid == syncing || o.getValue().isEmpty() || !kernels.contains(o.getValue().peek())) {
        continue;
      }
      int pop = popOf(in, at + 1, tid);
      if (pop < 0) {
        continue;
      }
      List<CaptureEvent> moved = new ArrayList<>();
      List<CaptureEvent> rest = new ArrayList<>();
      for (int j = at; j <= pop; j++) {
        (in.get(j).tid() == tid ? moved : rest).add(in.get(j));
      }
      List<CaptureEvent> window = in.subList(at, pop + 1);
      window.clear();
      window.addAll(moved);
      window.addAll(rest);
      return true;
    }
    return false;
  }

  /** The index of {@code tid}'s pop of its innermost default-domain range at or after {@code from}, or -1. */
  private static int popOf(List<CaptureEvent> in, int from, long tid) {
    int depth = 0;
    for (int j = from; j < in.size(); j++) {
      CaptureEvent e = in.get(j);
      if (e.tid() != tid) {
        continue;
      }
      if (e instanceof CaptureEvent.RangePush p && p.domain().equals("-")) {
        depth++;
      } else if (e instanceof CaptureEvent.RangePop p && p.domain().equals("-")) {
        if (depth == 0) {
          return j;
        }
        depth--;
      }
    }
    return -1;
  }

  private static void track(Map<Long, Deque<String>> open, CaptureEvent e) {
    if (e instanceof CaptureEvent.RangePush p && p.domain().equals("-")) {
      open.computeIfAbsent(e.tid(), k -> new ArrayDeque<>()).push(p.name());
    } else if (e instanceof CaptureEvent.RangePop p && p.domain().equals("-")) {
      Deque<String> stack = open.get(e.tid());
      if (stack != null && !stack.isEmpty()) {
        stack.pop();
      }
    }
  }
}
