package dev.interlock.impl.api;

/**
 * A snapshot of device memory: the figures cudaMemGetInfo and the memory pool would give.
 *
 * <p>The engine records one with every step and failure, so that a report shows the device as the
 * model's state has it at that point.
 *
 * @param capacity device bytes (the budget)
 * @param live     bytes in live buffers, plain and async, of all threads
 * @param cached   bytes the memory pool keeps after async frees
 * @param peakUsed the most {@code used()} bytes seen since the device started
 */
public record MemoryInfo(long capacity, long live, long cached, long peakUsed) {
  public MemoryInfo {
    if (capacity < 1 || live < 0 || cached < 0 || live + cached > capacity || peakUsed < live + cached) {
      throw new IllegalArgumentException("inconsistent memory info: capacity=" + capacity + " live=" + live
          + " cached=" + cached + " peak=" + peakUsed);
    }
  }

  /** What cudaMemGetInfo reports as used: live plus cached. */
  public long used() {
    return live + cached;
  }

  /** What cudaMemGetInfo reports as free. */
  public long free() {
    return capacity - used();
  }
}
