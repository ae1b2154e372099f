package dev.interlock.view.html;

import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.util.Locale;

/** What kind of thing a step does, for a mark's colour: decided by the step's type, not by its text. */
public enum StepCategory {
  /** lock, unlock, acquire, release. */
  LOCK,
  /** alloc, free, trim, sync, sync stream: steps that change or settle device memory. */
  MEMORY,
  /** cpu and kernel intervals. */
  INTERVAL,
  /** spawn, join, signal, wait: task coordination within a job. */
  TASK,
  /** if free: a branch on free device memory. */
  BRANCH,
  /** choose: a nondeterministic choice of path (phase then for the first path, else for the second). */
  CHOICE;

  /** The category of {@code step}. */
  public static StepCategory of(Step step) {
    return step.accept(OF);
  }

  /** The name the page's script and style sheet use, e.g. {@code memory}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  private static final Step.Visitor<StepCategory> OF = new Step.Visitor<>() {
    @Override
    public StepCategory lock(Lock s) {
      return LOCK;
    }

    @Override
    public StepCategory unlock(Unlock s) {
      return LOCK;
    }

    @Override
    public StepCategory acquire(Acquire s) {
      return LOCK;
    }

    @Override
    public StepCategory release(Release s) {
      return LOCK;
    }

    @Override
    public StepCategory alloc(Alloc s) {
      return MEMORY;
    }

    @Override
    public StepCategory free(Free s) {
      return MEMORY;
    }

    @Override
    public StepCategory trim(Trim s) {
      return MEMORY;
    }

    @Override
    public StepCategory sync(Sync s) {
      return MEMORY;
    }

    @Override
    public StepCategory syncStream(SyncStream s) {
      return MEMORY;
    }

    @Override
    public StepCategory kernel(Kernel s) {
      return INTERVAL;
    }

    @Override
    public StepCategory cpu(Cpu s) {
      return INTERVAL;
    }

    @Override
    public StepCategory ifFree(IfFree s) {
      return BRANCH;
    }

    @Override
    public StepCategory choose(dev.interlock.model.step.Choose s) {
      return CHOICE;
    }

    @Override
    public StepCategory spawn(Spawn s) {
      return TASK;
    }

    @Override
    public StepCategory join(Join s) {
      return TASK;
    }

    @Override
    public StepCategory signal(Signal s) {
      return TASK;
    }

    @Override
    public StepCategory await(Wait s) {
      return TASK;
    }
  };
}
