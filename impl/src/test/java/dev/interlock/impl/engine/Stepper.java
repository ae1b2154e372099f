package dev.interlock.impl.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Task;
import dev.interlock.model.step.Step;
import java.util.List;

/**
 * A design run on the engine and a simulated device under a {@link ControlledScheduler} that the
 * test cranks by hand: every transition is one grant, so tests of the new constructs are exact.
 */
final class Stepper {
  final Design design;
  final SimulatedDevice device;
  final ControlledScheduler sched;
  final Engine.Run run;

  Stepper(Design design) {
    this.design = design;
    this.device = new SimulatedDevice(design.vram());
    this.sched = new ControlledScheduler(Engine.threadNames(design));
    this.run = new Engine(device, sched).start(design, design.name() + ".design", InterpretedPipeline::new);
    sched.awaitReady();
  }

  /** A design of one role {@code w} (1 thread) and the given tasks, without mutexes. */
  static Design design(long vram, long threshold, List<ResidentBuffer> buffers, int jobs, List<Step> body, Task... tasks) {
    return design(vram, threshold, buffers, List.of(), new Role("w", 1, jobs, body), tasks);
  }

  static Design design(long vram, long threshold, List<ResidentBuffer> buffers, List<String> mutexes, Role role, Task... tasks) {
    return new Design("protocols", vram, threshold, buffers, mutexes, List.of(), List.of(role), List.of(tasks));
  }

  static Task task(String name, Step... body) {
    return new Task(name, List.of(body));
  }

  /** Grants {@code thread} its next transition and checks what happened. */
  Stepper grant(String thread, ControlledScheduler.Result expected) {
    assertThat(sched.waiting()).as("threads waiting for a grant").contains(thread);
    String at = text(sched.stepOf(thread));
    assertThat(sched.grant(thread)).as("%s at '%s' (%s)", thread, at, sched.describe()).isEqualTo(expected);
    return this;
  }

  /** Grants {@code thread} n transitions that each move it. */
  Stepper moves(String thread, int n) {
    for (int i = 0; i < n; i++) {
      grant(thread, ControlledScheduler.Result.MOVED);
    }
    return this;
  }

  private static String text(Step s) {
    return s == null ? "-" : s.text();
  }

  /** Lets every thread run in thread order until none can; the report of the run. */
  RunReport finish() {
    while (sched.failure().isEmpty()) {
      boolean moved = false;
      for (String t : sched.waiting()) {
        ControlledScheduler.Result r = sched.grant(t);
        if (r != ControlledScheduler.Result.BLOCKED) {
          moved = true;
          break;
        }
      }
      if (!moved) {
        break;
      }
    }
    return end();
  }

  /** Ends the run where it is and reports. */
  RunReport end() {
    sched.end("test finished");
    return run.await();
  }

  /** The device's live bytes now. */
  long live() {
    return device.memory().live();
  }
}
