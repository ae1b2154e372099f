package dev.interlock.impl.api;

/**
 * A design's counting semaphore ({@code semaphore NAME PERMITS}) that knows how many permits each thread holds.
 *
 * <p>Why not {@link java.util.concurrent.Semaphore}: releasing more permits than the thread holds is the model's
 * RELEASE_EXCESS, reported instead of silently inflating the count, and admission is the model's: an
 * {@code acquire} of n proceeds whenever n permits are free, whoever waited first.
 */
public interface Semaphore {
  /** Its name in the design. */
  String name();

  /** The step {@code acquire NAME n}: takes n permits at once, waiting until all are free. */
  void acquire(int n);

  /** The step {@code release NAME n}: gives back n permits the calling thread holds. */
  void release(int n);

  /** Permits the calling thread holds. */
  int heldByCurrentThread();

  /** Permits free now. */
  int available();
}
