package dev.interlock.impl.fault;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.KernelTiming;
import dev.interlock.impl.api.MemoryInfo;
import dev.interlock.model.design.Sizes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A {@link Device} that injects faults around the calls of the device it wraps: failed allocations, failed kernel
 * launches and executions, stalled kernels, and a sticky device-wide error (poison) after which every call fails until
 * {@link #reopen()} opens a fresh device (for CUDA: a new context) from its factory.
 *
 * <p>Why its own buffer handles: after a reopen the old device's buffers are gone, and the new device numbers its
 * buffers afresh, so a stale handle could name a new buffer. This device hands out handles with ids unique across
 * reopens and maps them to the current device's; a handle from a lost context is not live, and using it is the
 * poison's fault. Buffers of the run ({@code owner "device"}, the design's {@code buffer} lines) are allocated again
 * on the new device and keep their handles; no fault is injected into their allocation.
 */
public final class FaultyDevice implements Device {
  /** The owner of the run's own buffers, which get no faults and survive a reopen (RunResources.DEVICE_BUFFERS). */
  public static final String RUN_OWNER = "device";

  private final Supplier<? extends Device> open;
  private final Faults faults;
  private Device inner;
  /** Handle to the current device's buffer, and back. Guarded by this. */
  private final Map<DeviceBuffer, DeviceBuffer> toInner = new HashMap<>();
  private final Map<DeviceBuffer, DeviceBuffer> toOuter = new HashMap<>();
  private long nextId = 1;
  /** Handles with smaller ids were issued in an earlier context. */
  private long contextFirstId = 1;
  private long threshold;
  private int reopens;
  private volatile Fault poison;

  /**
   * @param open   opens the device, at first and after every poison; the device it returns is this one's until then
   * @param faults what to inject
   */
  public FaultyDevice(Supplier<? extends Device> open, Faults faults) {
    this.open = Objects.requireNonNull(open, "open");
    this.faults = Objects.requireNonNull(faults, "faults");
    this.inner = Objects.requireNonNull(open.get(), "the opened device");
  }

  /** The injector, which the engine asks for its own faults (interrupts, exceptions). */
  public Faults faults() {
    return faults;
  }

  /** The device now wrapped (a new one after each reopen). */
  public synchronized Device current() {
    return inner;
  }

  /** Whether a poison struck and the device has not been reopened since. */
  public boolean poisoned() {
    return poison != null;
  }

  /** The poison that struck, while the device has not been reopened since. */
  public Optional<Fault> poison() {
    return Optional.ofNullable(poison);
  }

  /** How many times the device was reopened (contexts recreated). */
  public synchronized int reopens() {
    return reopens;
  }

  /**
   * Closes the poisoned device and opens a fresh one, with the run's buffers allocated again: only a new context frees a
   * poisoned device's memory. Callers make sure no job uses the device meanwhile (the engine waits for every job in
   * flight to end). Does nothing when not poisoned.
   */
  public synchronized void reopen() {
    if (poison == null) {
      return;
    }
    List<DeviceBuffer> resident = toInner.keySet().stream().filter(b -> b.owner().equals(RUN_OWNER)).toList();
    try {
      inner.close();
    } catch (RuntimeException e) {
      // a poisoned context may fail to close cleanly; the new one is what counts
    }
    inner = Objects.requireNonNull(open.get(), "the reopened device");
    reopens++;
    inner.poolThreshold(threshold);
    toInner.clear();
    toOuter.clear();
    contextFirstId = nextId;
    for (DeviceBuffer b : resident) {
      map(b, inner.allocate(b.owner(), b.name(), b.bytes(), b.async()));
    }
    poison = null;
  }

  private void map(DeviceBuffer outer, DeviceBuffer in) {
    toInner.put(outer, in);
    toOuter.put(in, outer);
  }

  /** Throws the sticky error when poisoned. */
  private void unlessPoisoned(String call) {
    Fault p = poison;
    if (p != null) {
      throw new InjectedFault(new Fault(FaultKind.POISON, call, Thread.currentThread().getName(),
          "device poisoned earlier (" + p.detail() + " at " + p.step() + " on " + p.thread() + "): every call fails until the device is reopened"));
    }
  }

  /** Draws a poison for a call at {@code step}; when it strikes, the device is poisoned and the call fails. */
  private void maybePoison(String step) {
    Optional<Fault> f = faults.draw(FaultKind.POISON, step, "sticky device error: every later call fails until the device is reopened");
    if (f.isPresent()) {
      poison = f.get();
      throw new InjectedFault(f.get());
    }
  }

  /** The current device's buffer for handle {@code b}: a not-live stand-in for a freed one; a lost one is the poison's fault. */
  private DeviceBuffer inner(DeviceBuffer b, String call) {
    DeviceBuffer in = toInner.get(b);
    if (in != null) {
      return in;
    }
    if (b != null && b.id() < contextFirstId && b.id() > 0) {
      throw new InjectedFault(new Fault(FaultKind.POISON, b.name(), Thread.currentThread().getName(),
          call + " " + b.name() + ": the buffer was lost with a poisoned device's context"));
    }
    return b == null ? null : new DeviceBuffer(-b.id(), b.owner(), b.name(), b.bytes(), b.async());
  }

  @Override
  public synchronized DeviceBuffer allocate(String owner, String name, long bytes, boolean async) {
    unlessPoisoned("alloc " + name);
    if (!owner.equals(RUN_OWNER)) {
      maybePoison(name);
      Optional<Fault> f = faults.draw(FaultKind.ALLOC, name, "out of device memory (injected): " + owner + " alloc " + name + " "
          + Sizes.format(bytes));
      if (f.isPresent()) {
        throw new InjectedFault(f.get());
      }
    }
    DeviceBuffer in = inner.allocate(owner, name, bytes, async);
    DeviceBuffer outer = new DeviceBuffer(nextId++, owner, name, bytes, async);
    map(outer, in);
    return outer;
  }

  @Override
  public synchronized void free(DeviceBuffer buffer, String thread) {
    unlessPoisoned("free " + (buffer == null ? "null" : buffer.name()));
    DeviceBuffer in = inner(buffer, "free");
    inner.free(in, thread);
    toInner.remove(buffer);
    toOuter.remove(in);
  }

  @Override
  public synchronized void synchronizeStream(String thread) {
    unlessPoisoned("sync stream");
    inner.synchronizeStream(thread);
  }

  @Override
  public synchronized void poolThreshold(long bytes) {
    threshold = bytes;
    inner.poolThreshold(bytes);
  }

  @Override
  public synchronized void trim() {
    unlessPoisoned("trim");
    inner.trim();
  }

  @Override
  public KernelRun launch(String owner, String name, List<DeviceBuffer> uses, Runnable work) {
    return launchWith(name, () -> {
      List<DeviceBuffer> in = new ArrayList<>();
      for (DeviceBuffer b : uses) {
        in.add(resolve(b, "kernel " + name + " uses")); // under the monitor: a failed job's frees may run meanwhile
      }
      return current().launch(owner, name, in, work);
    });
  }

  /**
   * Launches kernel {@code name} through {@code launch} (which launches on {@link #current()}, with buffers from
   * {@link #resolve}) with this device's kernel faults around it: a poison or a failed launch before, a stall or a
   * failed execution at its await. What a wrapper of the proving kernels launches with.
   *
   * <p>The faults are drawn under this device's monitor, the launch itself runs outside it, so that threads launch
   * concurrently as they do on the wrapped device: a reopen cannot come between, since the engine reopens only when
   * no job is in flight.
   */
  public <R extends KernelRun> KernelRun launchWith(String name, Supplier<R> launch) {
    boolean failAtAwait = false;
    boolean stall;
    synchronized (this) {
      unlessPoisoned("kernel " + name);
      maybePoison(name);
      Optional<Fault> f = faults.draw(FaultKind.KERNEL, name, "kernel " + name + " failed");
      if (f.isPresent()) {
        if (faults.coin()) {
          throw new InjectedFault(new Fault(FaultKind.KERNEL, name, f.get().thread(), "kernel " + name + " failed to launch"));
        }
        failAtAwait = true;
      }
      stall = faults.draw(FaultKind.STALL, name, "kernel " + name + " completes late").isPresent();
    }
    return new FaultyRun(launch.get(), name, failAtAwait, stall);
  }

  /**
   * The current device's buffer behind handle {@code b}, for a copy or a kernel of a wrapper of the proving kernels:
   * the sticky error while poisoned, the poison's fault for a buffer of a lost context.
   */
  public synchronized DeviceBuffer resolve(DeviceBuffer b, String call) {
    unlessPoisoned(call);
    return inner(b, call);
  }

  /** A launched kernel whose completion may come late (stall) or fail (execution fault, poison). */
  private final class FaultyRun implements KernelRun {
    private final KernelRun run;
    private final String name;
    private final boolean failAtAwait;
    private final boolean stall;
    private boolean done;

    FaultyRun(KernelRun run, String name, boolean failAtAwait, boolean stall) {
      this.run = run;
      this.name = name;
      this.failAtAwait = failAtAwait;
      this.stall = stall;
    }

    @Override
    public String name() {
      return name;
    }

    /** Waits for the kernel (late, when stalled); a second await returns at once, as the wrapped one does. */
    @Override
    public void await() {
      if (done) {
        return;
      }
      done = true;
      if (stall) {
        long until = System.nanoTime() + faults.stallNanos();
        for (long left = faults.stallNanos(); left > 0; left = until - System.nanoTime()) {
          LockSupport.parkNanos(left); // the kernel has not completed: its work, and its end, come after the stall
        }
      }
      run.await();
      unlessPoisoned("end of kernel " + name);
      if (failAtAwait) {
        throw new InjectedFault(new Fault(FaultKind.KERNEL, name, Thread.currentThread().getName(),
            "kernel " + name + " failed during execution (at its await)"));
      }
    }
  }

  @Override
  public void synchronize() throws InterruptedException {
    unlessPoisoned("sync");
    current().synchronize();
  }

  @Override
  public boolean trySynchronize() {
    unlessPoisoned("sync");
    return current().trySynchronize();
  }

  @Override
  public synchronized MemoryInfo memory() {
    return inner.memory();
  }

  @Override
  public synchronized long reportedFree() {
    unlessPoisoned("if free");
    return inner.reportedFree();
  }

  @Override
  public synchronized long figureTolerance() {
    return inner.figureTolerance();
  }

  @Override
  public synchronized boolean reportsDriverErrors() {
    return inner.reportsDriverErrors();
  }

  @Override
  public synchronized List<KernelTiming> kernelTimings() {
    return inner.kernelTimings();
  }

  /** The current device's calls (since the last reopen). */
  @Override
  public synchronized List<DeviceCall> deviceCalls() {
    return inner.deviceCalls();
  }

  /** False for a buffer of a lost context, and for every buffer while poisoned: the context's memory is lost. */
  @Override
  public synchronized boolean isLive(DeviceBuffer buffer) {
    if (poison != null) {
      return false;
    }
    DeviceBuffer in = toInner.get(buffer);
    return in != null && inner.isLive(in);
  }

  /** Empty while poisoned. */
  @Override
  public synchronized List<DeviceBuffer> liveBuffers(String owner) {
    if (poison != null) {
      return List.of();
    }
    List<DeviceBuffer> out = new ArrayList<>();
    for (DeviceBuffer in : inner.liveBuffers(owner)) {
      DeviceBuffer outer = toOuter.get(in);
      out.add(outer != null ? outer : in);
    }
    return out;
  }

  @Override
  public synchronized String description() {
    return inner.description() + " with injected faults";
  }

  @Override
  public synchronized void reset() {
    inner.reset();
    toInner.clear();
    toOuter.clear();
  }

  @Override
  public synchronized void close() {
    inner.close();
  }
}
