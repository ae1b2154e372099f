package dev.interlock.impl.engine;

import dev.interlock.impl.device.Device;

/** What a pipeline gets for running a job: its thread's name, probe and the shared resources. */
public record Worker(String name, String role, int index, Probe probe, Resources resources) {

  public Device device() {
    return resources.device();
  }
}
