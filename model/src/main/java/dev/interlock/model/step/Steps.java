package dev.interlock.model.step;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Walks over bodies whose {@code if} steps nest other steps. */
public final class Steps {
  private Steps() {}

  /** The design lines of step s: one line, or an {@code if} block with its branches. */
  public static List<String> lines(Step s) {
    return s instanceof IfFree f ? f.lines() : List.of(s.text());
  }

  /**
   * What step s acts on: the buffer of {@code alloc} and {@code free}, the kernel or cpu interval, the mutex, the
   * semaphore, the task, the event; for steps that name nothing, their keyword ({@code sync} for both syncs,
   * {@code trim}, {@code if}). What {@code KIND@STEP:N} fault rules match a step by.
   */
  public static String subject(Step s) {
    return s.accept(SUBJECT);
  }

  private static final Step.Visitor<String> SUBJECT = new Step.Visitor<>() {
    @Override
    public String lock(Lock s) {
      return s.mutex();
    }

    @Override
    public String unlock(Unlock s) {
      return s.mutex();
    }

    @Override
    public String acquire(Acquire s) {
      return s.semaphore();
    }

    @Override
    public String release(Release s) {
      return s.semaphore();
    }

    @Override
    public String alloc(Alloc s) {
      return s.buffer();
    }

    @Override
    public String free(Free s) {
      return s.buffer();
    }

    @Override
    public String trim(Trim s) {
      return "trim";
    }

    @Override
    public String sync(Sync s) {
      return "sync";
    }

    @Override
    public String kernel(Kernel s) {
      return s.name();
    }

    @Override
    public String cpu(Cpu s) {
      return s.name();
    }

    @Override
    public String syncStream(SyncStream s) {
      return "sync";
    }

    @Override
    public String ifFree(IfFree s) {
      return "if";
    }

    @Override
    public String spawn(Spawn s) {
      return s.task();
    }

    @Override
    public String join(Join s) {
      return s.task();
    }

    @Override
    public String signal(Signal s) {
      return s.event();
    }

    @Override
    public String await(Wait s) {
      return s.event();
    }
  };

  /** Every step of body in textual order, the steps inside {@code if} blocks included. */
  public static List<Step> flatten(List<Step> body) {
    List<Step> out = new ArrayList<>();
    forEach(body, out::add);
    return out;
  }

  /** Calls action on every step of body in textual order, the steps inside {@code if} blocks included. */
  public static void forEach(List<Step> body, Consumer<Step> action) {
    for (Step s : body) {
      action.accept(s);
      if (s instanceof IfFree f) {
        forEach(f.then(), action);
        forEach(f.otherwise(), action);
      }
    }
  }
}
