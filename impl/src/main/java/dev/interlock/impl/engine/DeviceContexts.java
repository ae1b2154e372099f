package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.fault.Fault;
import dev.interlock.impl.fault.FaultKind;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.sync.WaitRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which jobs are in flight on the device, so that a poisoned device is reopened only once none is.
 *
 * <p>Why: after a poison (a sticky device error) only a new context frees the device's memory, and a job still using
 * the old one must fail first. A job enters when it starts and exits when its result is published (all its threads
 * ended, its buffers released); after a job, its role thread asks to {@link #recover()}: the first to ask stops new
 * jobs from entering, waits until no job is in flight (each fails at its next device call), reopens the device, and
 * lets the others go on. Nothing happens for a device that is not a {@link FaultyDevice}.
 *
 * <p>A role thread waiting here may hold a mutex or permits from its last job (a job may end holding a lock), which it
 * can give back only in a later job, after the reopening. A job in flight that waits for them could never end, nor
 * could the reopening: so such a job fails with the poison, as it would at its next device call, naming the holder
 * (its wait ends through {@link WaitRegistry#cancel}). It is found when it starts waiting while a holder is parked
 * here, or when a holder parks here while it waits: in free runs, whose waits the registry sees (faults are injected
 * only there).
 */
final class DeviceContexts {
  private final FaultyDevice device;
  private final WaitRegistry waits;
  private int inFlight;
  private boolean reopening;
  /** The jobs in flight, once started. */
  private final Set<JobScope> jobs = new LinkedHashSet<>();
  /**
   * The role threads waiting here for the reopening (or, the one reopening, for the jobs in flight to end): empty
   * unless reopening.
   */
  private final Set<Thread> parked = new HashSet<>();

  /**
   * @param waits where a thread waiting here is registered, so that the deadlock watchdog sees it, and where the waits
   *              for locks are heard of
   */
  DeviceContexts(Device device, WaitRegistry waits) {
    this.device = device instanceof FaultyDevice f ? f : null;
    this.waits = waits;
    if (this.device != null) {
      waits.listen(this::waitsFor);
    }
  }

  /** Waits on this monitor, registered as waiting on {@code what}; false when interrupted. */
  private boolean await(String what) {
    waits.enter(what);
    try {
      wait();
      return true;
    } catch (InterruptedException e) {
      return false;
    } finally {
      waits.exit();
    }
  }

  /** The injector of the device's faults, which the engine's steps ask too; none for a plain device. */
  Faults faults() {
    return device == null ? Faults.NONE : device.faults();
  }

  /** A job starts: waits while the device is being reopened. */
  void enter() {
    if (device == null) {
      return;
    }
    synchronized (this) {
      boolean interrupted = awaitReopened();
      inFlight++;
      restore(interrupted);
    }
  }

  /** The job {@code scope}, which has entered, has started: its threads' waits for locks are watched. */
  void started(JobScope scope) {
    if (device == null) {
      return;
    }
    synchronized (this) {
      jobs.add(scope);
    }
  }

  /** The result of {@code scope}'s job is out. */
  void exit(JobScope scope) {
    if (device == null) {
      return;
    }
    synchronized (this) {
      inFlight--;
      jobs.remove(scope);
      notifyAll();
    }
  }

  /**
   * Reopens the device when it is poisoned, once no job is in flight; the calling thread must have no job in flight
   * other than ones whose other threads will end on their own. Returns at once when the device is fine.
   */
  void recover() {
    if (device == null || !device.poisoned()) {
      return;
    }
    boolean interrupted = false;
    synchronized (this) {
      if (reopening) {
        restore(awaitReopened());
        return;
      }
      reopening = true;
      park();
      while (inFlight > 0) {
        interrupted |= !await("the jobs in flight to end, to reopen the poisoned device");
      }
      parked.remove(Thread.currentThread());
    }
    try {
      device.reopen();
    } finally {
      synchronized (this) {
        reopening = false;
        parked.clear(); // none waits for the reopening any more, though it may not have woken yet
        notifyAll();
      }
      restore(interrupted);
    }
  }

  private static void restore(boolean interrupted) {
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits, parked, while the device is being reopened (holding this monitor); whether it was interrupted. */
  private boolean awaitReopened() {
    boolean interrupted = false;
    while (reopening) {
      park(); // again after a reopening that ended and a next one that began before this thread woke
      interrupted |= !await("the poisoned device to be reopened");
    }
    parked.remove(Thread.currentThread());
    return interrupted;
  }

  /**
   * The calling thread waits here until the reopening (holding this monitor): the jobs waiting for what it holds can no
   * longer end.
   */
  private void park() {
    if (!parked.add(Thread.currentThread())) {
      return;
    }
    for (Map.Entry<Thread, WaitRegistry.Waiting> w : waits.waiting().entrySet()) {
      if (w.getValue().on() != null) {
        failIfStuck(w.getKey(), w.getValue());
      }
    }
  }

  /** Thread {@code t} has started waiting for a lock. */
  private void waitsFor(Thread t, WaitRegistry.Waiting w) {
    synchronized (this) {
      if (!parked.isEmpty()) {
        failIfStuck(t, w);
      }
    }
  }

  /**
   * Fails the job of {@code t}, in flight and waiting for {@code w}, with the poison when the threads parked here hold
   * so much of the lock that the wait cannot end before the reopening, which waits for that job.
   */
  private void failIfStuck(Thread t, WaitRegistry.Waiting w) {
    Map<Thread, Integer> holders = w.on().holders();
    int kept = holders.getOrDefault(t, 0);
    List<String> names = new ArrayList<>();
    for (Map.Entry<Thread, Integer> h : holders.entrySet()) {
      if (parked.contains(h.getKey())) {
        kept += h.getValue();
        names.add(h.getKey().getName());
      }
    }
    if (names.isEmpty() || w.on().units() - kept >= w.units()) {
      return;
    }
    JobScope job = jobs.stream().filter(j -> j.has(t)).findFirst().orElse(null);
    if (job == null) {
      return; // not a thread of a job in flight
    }
    names.sort(null);
    String poison = device.poison().map(p -> " (" + p.detail() + " at " + p.step() + " on " + p.thread() + ")")
        .orElse("");
    Fault f = new Fault(FaultKind.POISON, w.on().name(), t.getName(), "device poisoned earlier" + poison + ": "
        + t.getName() + " waits for " + w.on().describe() + ", held by " + String.join(", ", names)
        + ", which waits for the device to be reopened, and the reopening waits for this job");
    job.failWaiting(new JobResult.Faulted(job.job(), t.getName(), w.what(), f, device.memory())); // t's wait ends
  }

  /** Jobs in flight now. */
  synchronized int inFlight() {
    return inFlight;
  }
}
