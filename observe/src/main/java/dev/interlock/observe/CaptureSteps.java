package dev.interlock.observe;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What validate and infer step on: a capture in the terms a design has, so that both read the new kinds of record
 * the same way.
 *
 * <p>An NVTX start/end range that ends on the thread that started it, while it is that thread's innermost open range,
 * becomes a {@code range_push}/{@code range_pop} pair (a named interval of that thread); one that ends on another
 * thread, or while a range opened inside it is still open, stays as it is, and neither reader takes it as a step. Read-mode rwlock records are left
 * out: a design has no shared locks, so a rwlock is the design's mutex as its writers take it. Marks stay (neither
 * reader takes them as a step). A thread that its creator started and at once joined is the creator's work
 * ({@link ForkJoinFolding}).
 */
final class CaptureSteps {
  private CaptureSteps() {}

  /**
   * {@code capture} with its folded fork-join children on their creators' threads, its thread-bound start/end ranges
   * as push/pop and without read-mode rwlock records.
   */
  static Capture of(Capture capture) {
    List<CaptureEvent> events = ForkJoinFolding.fold(capture.events());
    Set<Long> paired = pairedOnOneThread(events);
    Map<Long, String> domains = new HashMap<>();
    List<CaptureEvent> out = new ArrayList<>(events.size());
    for (CaptureEvent e : events) {
      if (e instanceof CaptureEvent.RangeStart s && paired.contains(s.id())) {
        domains.put(s.id(), s.domain());
        out.add(new CaptureEvent.RangePush(s.line(), s.nanos(), s.tid(), s.name(), s.domain()));
      } else if (e instanceof CaptureEvent.RangeEnd end && paired.contains(end.id())) {
        out.add(new CaptureEvent.RangePop(end.line(), end.nanos(), end.tid(), domains.get(end.id())));
      } else if (!(e instanceof CaptureEvent.Acquire a && a.kind().shared()
          || e instanceof CaptureEvent.Release r && r.kind().shared())) {
        out.add(e);
      }
    }
    return new Capture(capture.source(), capture.pid(), capture.program(), capture.startNs(), out, capture.warnings());
  }

  /**
   * The ids of the start/end ranges that end on the thread that started them while they are that thread's innermost
   * open range (of push ranges and such start ranges): one stack a thread, as a push/pop reader keeps it.
   */
  private static Set<Long> pairedOnOneThread(List<CaptureEvent> events) {
    final Long push = -1L; // a range_push on the stack; start ranges are there by their (positive) id
    Map<Long, Deque<Long>> open = new HashMap<>();
    Set<Long> started = new HashSet<>();
    Set<Long> paired = new HashSet<>();
    for (CaptureEvent e : events) {
      Deque<Long> stack = open.computeIfAbsent(e.tid(), k -> new ArrayDeque<>());
      if (e instanceof CaptureEvent.RangeStart s) {
        if (started.add(s.id())) {
          stack.push(s.id());
        }
      } else if (e instanceof CaptureEvent.RangePush) {
        stack.push(push);
      } else if (e instanceof CaptureEvent.RangePop) {
        // a pop closes the innermost push range; start ranges opened inside it and still open cross it
        while (!stack.isEmpty() && !stack.peek().equals(push)) {
          stack.pop();
        }
        stack.poll();
      } else if (e instanceof CaptureEvent.RangeEnd end) {
        if (Long.valueOf(end.id()).equals(stack.peek())) {
          stack.pop();
          paired.add(end.id());
        } else {
          stack.remove(end.id()); // ended out of order on its own thread: it crosses a range
        }
      }
    }
    return paired;
  }
}
