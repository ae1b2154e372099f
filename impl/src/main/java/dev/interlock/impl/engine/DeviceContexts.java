package dev.interlock.impl.engine;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;

/**
 * Which jobs are in flight on the device, so that a poisoned device is reopened only once none is.
 *
 * <p>Why: after a poison (a sticky device error) only a new context frees the device's memory, and a job still using
 * the old one must fail first. A job enters when it starts and exits when its result is published (all its threads
 * ended, its buffers released); after a job, its role thread asks to {@link #recover()}: the first to ask stops new
 * jobs from entering, waits until no job is in flight (each fails at its next device call), reopens the device, and
 * lets the others go on. Nothing happens for a device that is not a {@link FaultyDevice}.
 */
final class DeviceContexts {
  private final FaultyDevice device;
  private int inFlight;
  private boolean reopening;

  DeviceContexts(Device device) {
    this.device = device instanceof FaultyDevice f ? f : null;
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
      boolean interrupted = false;
      while (reopening) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      inFlight++;
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A job's result is out. */
  void exit() {
    if (device == null) {
      return;
    }
    synchronized (this) {
      inFlight--;
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
        while (reopening) {
          try {
            wait();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
        restore(interrupted);
        return;
      }
      reopening = true;
      while (inFlight > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    try {
      device.reopen();
    } finally {
      synchronized (this) {
        reopening = false;
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

  /** Jobs in flight now. */
  synchronized int inFlight() {
    return inFlight;
  }
}
