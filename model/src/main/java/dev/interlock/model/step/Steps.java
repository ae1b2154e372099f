package dev.interlock.model.step;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Walks over bodies whose {@code if} blocks and {@code on oom} handlers nest other steps. */
public final class Steps {
  private Steps() {}

  /** The design lines of step s: one line, an {@code if} block with its branches, or an alloc with its {@code on oom}. */
  public static List<String> lines(Step s) {
    return s instanceof IfFree f ? f.lines() : s instanceof Alloc a ? a.lines()
        : s instanceof Choose c ? c.lines() : List.of(s.text());
  }

  /**
   * The step lists nested in step s, in textual order: an {@code if}'s then and else branches, a {@code choose}'s two
   * paths, an alloc's {@code on oom} handler and its else (success) steps; none for other steps. The one place that
   * says which steps nest others.
   */
  public static List<List<Step>> nested(Step s) {
    if (s instanceof IfFree f) {
      return List.of(f.then(), f.otherwise());
    }
    if (s instanceof Choose c) {
      return List.of(c.first(), c.second());
    }
    if (s instanceof Alloc a && a.onOom() instanceof OnOom.Handle h) {
      return List.of(h.steps(), h.success());
    }
    return List.of();
  }

  /** Step s as a trace line holds it: an {@code if} or {@code choose} without its paths, an alloc without its {@code on oom}. */
  public static Step header(Step s) {
    return s instanceof IfFree f ? f.header() : s instanceof Alloc a ? a.header()
        : s instanceof Choose c ? c.header() : s;
  }

  /**
   * What step s acts on: the buffer of {@code alloc} and {@code free}, the kernel or cpu interval, the mutex, the
   * semaphore, the task, the event; for steps that name nothing, their keyword ({@code sync} for both syncs,
   * {@code trim}, {@code if}, {@code choose}). What {@code KIND@STEP:N} fault rules match a step by.
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
    public String choose(Choose s) {
      return "choose";
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

  /** Every step of body in textual order, the steps inside {@code if} blocks and {@code on oom} handlers included. */
  public static List<Step> flatten(List<Step> body) {
    List<Step> out = new ArrayList<>();
    forEach(body, out::add);
    return out;
  }

  /** Calls action on every step of body in textual order, nested steps included (see {@link #nested}). */
  public static void forEach(List<Step> body, Consumer<Step> action) {
    for (Step s : body) {
      action.accept(s);
      for (List<Step> inner : nested(s)) {
        forEach(inner, action);
      }
    }
  }
}
