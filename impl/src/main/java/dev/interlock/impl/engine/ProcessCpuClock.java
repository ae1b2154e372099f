package dev.interlock.impl.engine;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * The process's CPU time, sampled on a thread of its own while a run goes, to tell how many host cores a step kept
 * busy. The operating system counts CPU time in ticks (10 ms on Linux), so one interval's reading is within about a
 * tick at each end; over many intervals the errors average out.
 */
public final class ProcessCpuClock implements AutoCloseable {
  private static final long PERIOD_NANOS = 1_000_000;

  private final com.sun.management.OperatingSystemMXBean os;
  private final Thread sampler;
  private long[] wall = new long[1024];
  private long[] cpu = new long[1024];
  private int n;
  private volatile boolean stop;

  private ProcessCpuClock(com.sun.management.OperatingSystemMXBean os) {
    this.os = os;
    this.sampler = new Thread(this::sample, "interlock-cpu-clock");
    sampler.setDaemon(true);
  }

  /** Starts sampling; the JVM's operating-system bean must give the process's CPU time. */
  public static ProcessCpuClock start() {
    if (!(ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os)
        || os.getProcessCpuTime() < 0) {
      throw new IllegalStateException("this JVM does not give the process's CPU time");
    }
    ProcessCpuClock c = new ProcessCpuClock(os);
    c.record();
    c.sampler.start();
    return c;
  }

  private void sample() {
    while (!stop) {
      record();
      java.util.concurrent.locks.LockSupport.parkNanos(PERIOD_NANOS); // a sampling period, not a wait for another thread
    }
  }

  private synchronized void record() {
    if (n == wall.length) {
      wall = Arrays.copyOf(wall, 2 * n);
      cpu = Arrays.copyOf(cpu, 2 * n);
    }
    wall[n] = System.nanoTime();
    cpu[n] = os.getProcessCpuTime();
    n++;
  }

  /** Stops sampling, after one last sample. */
  @Override
  public void close() {
    stop = true;
    try {
      sampler.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    record();
  }

  /** The process's CPU nanoseconds at {@link System#nanoTime()} {@code at}: the last sample at or before it. */
  public synchronized long cpuAt(long at) {
    int i = Arrays.binarySearch(wall, 0, n, at);
    int k = i >= 0 ? i : Math.max(0, -i - 2);
    return cpu[k];
  }
}
