package dev.interlock.gpu.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a host-side copy of n longs in parts on a few threads, so that filling (or emptying) pinned memory keeps up
 * with the copy engine.
 *
 * <p>Why: one thread converting and copying into pinned memory moves about 10 GB/s on an H200 host, a fraction of
 * what PCIe carries. Parts are whole multiples of {@value #ALIGN} longs, so no scalar (4), G1 affine point (12) or G2
 * affine point (24) is ever split, and at least {@value #MIN_PART_LONGS} long; the calling thread runs the first part itself.
 * Returns only when every part has ended, failed or not, so no part still writes to memory the caller reuses.
 *
 * <p>Its threads belong to whoever made it (a {@link CudaDevice}, which closes it when it closes).
 */
final class HostCopies implements AutoCloseable {
  /** Parts are multiples of this many longs: a G2 affine point, two G1 ones, six scalars. */
  static final int ALIGN = 24;
  /** Smallest part: 768 KiB. */
  static final int MIN_PART_LONGS = ALIGN * 4096;

  /** One part of a copy: longs [offset, offset + length) of it. */
  @FunctionalInterface
  interface Part {
    void run(int offset, int length);
  }

  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "staging-copy");
    t.setDaemon(true);
    return t;
  });

  private volatile int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 4));

  /** Threads per copy: a quarter of the CPUs, at most 4, at least 1. */
  int threads() {
    return threads;
  }

  /** Sets the threads per copy (benchmarks compare counts); at least 1. */
  void threads(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("copy threads must be at least 1, got " + count);
    }
    threads = count;
  }

  /** Runs part over [0, n) in at most {@link #threads()} parts; the first failure is rethrown after all have ended. */
  void run(int n, Part part) {
    int parts = Math.min(threads, Math.max(1, n / MIN_PART_LONGS));
    if (parts == 1) {
      part.run(0, n);
      return;
    }
    int size = ((n + parts - 1) / parts + ALIGN - 1) / ALIGN * ALIGN;
    List<Future<?>> others = new ArrayList<>(parts - 1);
    Throwable failed = null;
    try {
      for (int off = size; off < n; off += size) {
        int at = off;
        int len = Math.min(size, n - off);
        others.add(pool.submit(() -> part.run(at, len)));
      }
      part.run(0, Math.min(size, n));
    } catch (RuntimeException | Error e) {
      failed = e;
    }
    boolean interrupted = false;
    for (Future<?> f : others) {
      while (true) {
        try {
          f.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the parts write into the caller's memory: wait for them regardless
        } catch (ExecutionException e) {
          failed = failed == null ? e.getCause() : failed;
          break;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failed instanceof RuntimeException r) {
      throw r;
    }
    if (failed instanceof Error e) {
      throw e;
    }
    if (failed != null) {
      throw new IllegalStateException("host copy failed: " + failed, failed);
    }
  }

  /** Stops the copy threads; no copy may be running. */
  @Override
  public void close() {
    pool.shutdown();
  }
}
