package dev.interlock.observe;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule for NVTX ranges named {@code acquire SEM N} / {@code release SEM N}: one semaphore call inside such a
 * range stands for N permits (an engine's NVTX sync-user call for a counting semaphore), and a mutex taken only inside
 * them, or named {@code SEM.guard}, guards the semaphore's count and is no lock of the protocol. Validate and infer both
 * ask here.
 */
final class SemaphoreRanges {
  private static final Pattern RANGE = Pattern.compile("(acquire|release) (.+) ([0-9]{1,9})");

  private SemaphoreRanges() {}

  /** Permits one {@code verb} ("acquire" or "release") call on {@code semaphore} stands for inside the {@code open} ranges. */
  static int permits(String verb, String semaphore, Iterable<String> open) {
    for (String name : open) {
      Matcher m = RANGE.matcher(name);
      if (m.matches() && m.group(1).equals(verb) && m.group(2).equals(semaphore)) {
        return Math.max(1, Integer.parseInt(m.group(3)));
      }
    }
    return 1;
  }

  /** Whether {@code range} is an {@code acquire SEM N} or {@code release SEM N} range. */
  static boolean isSemaphoreRange(String range) {
    return RANGE.matcher(range).matches();
  }

  /** Whether {@code mutex} is named {@code SEM.guard} after one of the {@code semaphores}. */
  static boolean namedGuard(String mutex, Set<String> semaphores) {
    return mutex.endsWith(".guard") && semaphores.contains(mutex.substring(0, mutex.length() - ".guard".length()));
  }
}
