package dev.interlock.model.param;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Semaphore;

/**
 * The shared part g of a configuration: which mutexes are held and how many permits of each semaphore are available.
 *
 * <p>Model keeps both inside the workers' blocks (a holder's mutex bit, a holder's permits); the counter abstraction
 * keeps them as finite control, which is exact because only a holder changes them. States are numbered densely:
 * the held mutexes as bits, then each semaphore's available permits in mixed radix.
 */
final class SharedStates {
  private final int mutexes;
  private final long[] permits;
  private final int count;

  SharedStates(Design design, int limit) {
    mutexes = design.mutexes().size();
    permits = design.semaphores().stream().mapToLong(Semaphore::permits).toArray();
    long n = mutexes >= 31 ? Long.MAX_VALUE : 1L << mutexes;
    for (long p : permits) {
      n = n > limit ? n : n * (p + 1);
    }
    if (n > limit) {
      throw new TooLarge("more than " + limit + " shared states (mutexes held times available permits)");
    }
    count = (int) n;
  }

  int count() {
    return count;
  }

  /** The initial shared state: no mutex held, every permit available. */
  int initial() {
    return encode(0, permits.clone());
  }

  /**
   * The shared state after a worker's move that takes the mutexes of {@code lock}, lets go of those of
   * {@code unlock} and takes {@code acquired[i]} more permits of semaphore i (negative: gives them back); -1 when the
   * move cannot happen from g: a mutex it takes is held, or too few permits are available.
   */
  int after(int g, long lock, long unlock, long[] acquired) {
    long held = g & ((1L << mutexes) - 1);
    if ((held & lock) != 0 || (held & unlock) != unlock) {
      return -1;
    }
    long[] avail = available(g);
    for (int i = 0; i < avail.length; i++) {
      avail[i] -= acquired[i];
      if (avail[i] < 0 || avail[i] > permits[i]) {
        return -1;
      }
    }
    return encode((held | lock) & ~unlock, avail);
  }

  /** The mutexes (bit i: mutex i) held in g. */
  long held(int g) {
    return g & ((1L << mutexes) - 1);
  }

  /** Initial permits of semaphore i. */
  long permits(int i) {
    return permits[i];
  }

  /** Permits of each semaphore available in g. */
  long[] available(int g) {
    long[] avail = new long[permits.length];
    long rest = g >>> mutexes;
    for (int i = 0; i < permits.length; i++) {
      avail[i] = rest % (permits[i] + 1);
      rest /= permits[i] + 1;
    }
    return avail;
  }

  private int encode(long held, long[] avail) {
    long rest = 0;
    for (int i = permits.length - 1; i >= 0; i--) {
      rest = rest * (permits[i] + 1) + avail[i];
    }
    return (int) (held | (rest << mutexes));
  }

  /** The design is too large for the counter abstraction's limits. */
  static final class TooLarge extends RuntimeException {
    TooLarge(String message) {
      super(message, null, false, false);
    }
  }
}
