package dev.interlock.properties.model;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Task;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Semaphore;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Choose;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.Source;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;

/**
 * Random designs over a small vocabulary: 1-3 roles of 1-2 threads, 1-2 jobs, bodies of 1-3
 * nested blocks over two mutexes, one semaphore, two buffer names, a kernel and a cpu interval;
 * and the real-engine constructs: a pool threshold (0, 1GiB or max), sometimes a device buffer
 * {@code d0}, a kept buffer {@code k0}, {@code if free} blocks, {@code sync stream}, and a task
 * {@code t0} that roles spawn and join, with an event {@code e0} it or the role signals and the
 * role waits for; and fallible allocations ({@code on oom ignore}, handlers that fall back under a lock or after
 * blocks of their own), sized near the vram line so that they fail.
 *
 * <p>Small on purpose: every generated design is exhaustively checkable in milliseconds, and the
 * vocabulary reaches every verdict (OOM, SWALLOWED_OOM, DEADLOCK, LEAK, USE_AFTER_FREE, BAD_FREE,
 * UNLOCK_NOT_HELD, RELEASE_EXCESS). Bodies are mostly well-bracketed (lock before unlock, alloc
 * before free, nested up to two deep) so that runs get far and SAFE designs are common too.
 */
public final class DesignGen {
  private static final List<String> MUTEXES = List.of("m0", "m1");
  private static final List<String> BUFFERS = List.of("b0", "b1");
  private static final String KEPT = "k0";
  private static final String DEVICE = "d0";
  private static final String TASK = "t0";
  private static final String EVENT = "e0";

  private DesignGen() {}

  /** The generator: the whole vocabulary, fallible allocations ({@code on oom}) included. */
  public static Gen<Design> designs() {
    return s -> design(s, true);
  }

  /**
   * What one design's bodies may use beyond the base vocabulary; {@code onOom}: fallible allocations, whose sizes
   * are drawn near {@code vram} so that they really fail.
   */
  private record Extras(boolean task, boolean device, long keptBytes, boolean keptAsync, boolean onOom, long vram) {}

  private static Design design(Source s, boolean onOom) {
    long vram = (2 + s.choose(6)) * Sizes.GIB;
    int permits = s.chance(1, 8) ? 0 : 1 + s.choose(2);
    int roles = 1 + s.choose(2);
    long threshold = switch (s.choose(3)) {
      case 0 -> Sizes.GIB;
      case 1 -> Design.THRESHOLD_MAX;
      default -> 0;
    };
    Extras x = new Extras(s.chance(1, 3), s.chance(1, 4), (1 + s.choose(1)) * Sizes.GIB, s.chance(1, 2), onOom, vram);
    List<ResidentBuffer> device = x.device() ? List.of(new ResidentBuffer(DEVICE, Sizes.GIB)) : List.of();
    List<Task> tasks = new ArrayList<>();
    if (x.task()) {
      List<Step> body = new ArrayList<>();
      block(s, body, new ArrayList<>(), 1, new Extras(false, x.device(), x.keptBytes(), x.keptAsync(), onOom, vram));
      if (s.chance(2, 3)) {
        body.add(s.choose(1) == 0 ? body.size() : 0, new Signal(EVENT));
      }
      tasks.add(new Task(TASK, body));
    }
    List<Role> rs = new ArrayList<>();
    for (int r = 0; r < roles; r++) {
      int threads = 1 + s.choose(1);
      int jobs = 1 + s.choose(1);
      rs.add(new Role("r" + r, threads, jobs, waitsOnlyForSignalledEvents(body(s, x), tasks)));
    }
    return new Design("random", vram, threshold, device, MUTEXES, List.of(new Semaphore("sem", permits)), rs, tasks);
  }

  /**
   * The body with each {@code wait E} made a {@code signal E} where nothing the role's job runs signals E (the
   * design's rule, {@link Design#signalsOf}: such a wait is a parse error).
   */
  private static List<Step> waitsOnlyForSignalledEvents(List<Step> body, List<Task> tasks) {
    return replaceWaits(body, Design.signalsOf(body, tasks));
  }

  private static List<Step> replaceWaits(List<Step> body, Set<String> signalled) {
    List<Step> out = new ArrayList<>();
    for (Step st : body) {
      if (st instanceof Wait w && !signalled.contains(w.event())) {
        out.add(new Signal(w.event()));
      } else if (st instanceof IfFree f) {
        out.add(new IfFree(f.atLeast(), f.bytes(), replaceWaits(f.then(), signalled), replaceWaits(f.otherwise(), signalled)));
      } else if (st instanceof Choose c) {
        out.add(new Choose(replaceWaits(c.first(), signalled), replaceWaits(c.second(), signalled)));
      } else if (st instanceof Alloc a && a.onOom() instanceof OnOom.Handle h) {
        out.add(a.withOnOom(new OnOom.Handle(replaceWaits(h.steps(), signalled), replaceWaits(h.success(), signalled))));
      } else {
        out.add(st);
      }
    }
    return out;
  }

  private static List<Step> body(Source s, Extras x) {
    List<Step> body = new ArrayList<>();
    int blocks = 1 + s.choose(3);
    for (int i = 0; i < blocks; i++) {
      block(s, body, new ArrayList<>(), 0, x);
    }
    return body;
  }

  /**
   * Appends one block: mostly well-bracketed regions (lock/unlock, acquire/release, alloc/free)
   * nesting further blocks, or work (cpu, kernels on the buffers live here, trim, sync); one time
   * in eight an arbitrary step, which is how misuse (bad frees, stray unlocks) gets in.
   */
  private static void block(Source s, List<Step> body, List<String> live, int depth, Extras x) {
    if (s.chance(1, 8)) {
      body.add(single(s, x));
      return;
    }
    if (s.chance(1, 4)) {
      extra(s, body, live, depth, x);
      return;
    }
    int kind = depth >= 2 ? 3 : s.choose(3);
    switch (kind) {
      case 0 -> {
        String m = MUTEXES.get(s.choose(1));
        body.add(new Lock(m));
        inner(s, body, live, depth, x);
        body.add(new Unlock(m));
      }
      case 1 -> {
        int k = 1 + s.choose(1);
        body.add(new Acquire("sem", k));
        inner(s, body, live, depth, x);
        body.add(new Release("sem", k));
      }
      case 2 -> {
        List<String> free = new ArrayList<>(BUFFERS);
        free.removeAll(live);
        if (free.isEmpty()) {
          body.add(new Kernel("k", List.copyOf(live)));
          return;
        }
        String b = free.get(s.choose(free.size() - 1));
        Alloc a = new Alloc(b, (1 + s.choose(3)) * Sizes.GIB, s.chance(1, 2));
        body.add(x.onOom() && s.chance(1, 3) ? fallible(s, a, live, depth, x) : a);
        List<String> inside = new ArrayList<>(live);
        inside.add(b);
        inner(s, body, inside, depth, x);
        body.add(new Free(b));
      }
      default -> body.add(work(s, live));
    }
  }

  /**
   * Appends one of the real-engine constructs: an {@code if free} guard or a {@code choose} around blocks, the task's
   * spawn (with a later join or wait), a kept allocation, or {@code sync stream}.
   */
  private static void extra(Source s, List<Step> body, List<String> live, int depth, Extras x) {
    switch (s.choose(3)) {
      case 0 -> {
        if (depth >= 2) {
          body.add(new SyncStream());
          return;
        }
        List<Step> then = new ArrayList<>();
        List<Step> otherwise = new ArrayList<>();
        inner(s, then, live, depth, x);
        if (s.chance(1, 2)) {
          inner(s, otherwise, live, depth, x);
        }
        // a third of these blocks are a choose instead: the same two bodies, both explored
        body.add(s.chance(1, 3) ? new Choose(then, otherwise)
            : new IfFree(s.chance(3, 4), (1 + s.choose(3)) * Sizes.GIB, then, otherwise));
      }
      case 1 -> {
        if (!x.task()) {
          body.add(new SyncStream());
          return;
        }
        body.add(new Spawn(TASK));
        inner(s, body, live, depth, x);
        body.add(s.chance(1, 2) ? new Join(TASK) : new Wait(EVENT));
      }
      case 2 -> {
        Alloc k = new Alloc(KEPT, x.keptBytes(), x.keptAsync(), true);
        if (x.onOom() && s.chance(1, 3)) {
          // one size per kept name: the handler cannot fall back to a smaller k0, it works without it
          List<Step> handler = new ArrayList<>();
          inner(s, handler, live, Math.max(depth, 1), x);
          k = k.withOnOom(s.chance(1, 2) ? OnOom.IGNORE : new OnOom.Handle(handler));
        }
        body.add(k);
        body.add(new Kernel("k", x.device() && s.chance(1, 2) ? List.of(KEPT, DEVICE) : List.of(KEPT)));
      }
      default -> body.add(new SyncStream());
    }
  }

  /**
   * Alloc a made fallible, mostly at a size near the vram line (so that it fails beside other buffers, or always):
   * {@code on oom ignore}, or a handler that falls back to a 1GiB buffer (under a mutex, or after blocks that may lock,
   * allocate and free), or one that only works and leaves the buffer missing for the steps after the block.
   */
  private static Alloc fallible(Source s, Alloc a, List<String> live, int depth, Extras x) {
    long gib = x.vram() / Sizes.GIB;
    long bytes = switch (s.choose(3)) {
      case 0 -> (gib - 1) * Sizes.GIB;
      case 1 -> Math.max(1, gib / 2) * Sizes.GIB;
      case 2 -> (gib + 1) * Sizes.GIB;
      default -> a.bytes();
    };
    Alloc sized = new Alloc(a.buffer(), bytes, a.async(), a.keep());
    if (s.chance(1, 3)) {
      return sized.withOnOom(OnOom.IGNORE);
    }
    List<Step> handler = new ArrayList<>();
    Alloc fallback = new Alloc(a.buffer(), Sizes.GIB, s.chance(1, 2));
    if (s.chance(1, 4)) {
      fallback = fallback.withOnOom(OnOom.IGNORE);
    }
    switch (s.choose(3)) {
      case 0 -> {
        String m = MUTEXES.get(s.choose(1));
        handler.add(new Lock(m));
        handler.add(fallback);
        handler.add(new Unlock(m));
      }
      case 1 -> {
        inner(s, handler, live, depth, x);
        handler.add(fallback);
      }
      case 2 -> {
        // make room first: work in a buffer of its own, freed again, then the fallback
        List<String> others = new ArrayList<>(BUFFERS);
        others.remove(a.buffer());
        others.removeAll(live);
        if (!others.isEmpty()) {
          handler.add(new Alloc(others.get(0), Sizes.GIB, s.chance(1, 2)));
          handler.add(new Kernel("k", List.of(others.get(0))));
          handler.add(new Free(others.get(0)));
        }
        handler.add(s.chance(1, 2) ? new Trim() : new Sync());
        handler.add(fallback);
      }
      default -> inner(s, handler, live, depth, x);
    }
    return sized.withOnOom(new OnOom.Handle(handler));
  }

  private static void inner(Source s, List<Step> body, List<String> live, int depth, Extras x) {
    int n = s.choose(2);
    for (int i = 0; i < n; i++) {
      block(s, body, live, depth + 1, x);
    }
  }

  private static Step work(Source s, List<String> live) {
    return switch (s.choose(3)) {
      case 0 -> new Cpu("c");
      case 1 -> new Kernel("k", live.isEmpty() || s.chance(1, 3) ? List.of() : List.of(live.get(s.choose(live.size() - 1))));
      case 2 -> new Trim();
      default -> new Sync();
    };
  }

  private static Step single(Source s, Extras x) {
    Step one = singleStep(s, x);
    return one instanceof Alloc a && x.onOom() && s.chance(1, 4) ? a.withOnOom(OnOom.IGNORE) : one;
  }

  private static Step singleStep(Source s, Extras x) {
    return switch (s.choose(10)) {
      case 0 -> new Cpu("c", s.chance(1, 4) ? Optional.of(Duration.ofMillis(1 + s.choose(999))) : Optional.empty());
      case 1 -> new Kernel("k", s.chance(1, 2) ? List.of(BUFFERS.get(s.choose(1))) : List.of());
      case 2 -> new Lock(MUTEXES.get(s.choose(1)));
      case 3 -> new Unlock(MUTEXES.get(s.choose(1)));
      case 4 -> new Acquire("sem", 1 + s.choose(1));
      case 5 -> new Release("sem", 1 + s.choose(1));
      case 6 -> new Alloc(BUFFERS.get(s.choose(1)), (1 + s.choose(3)) * Sizes.GIB, s.chance(1, 2));
      case 7 -> new Free(BUFFERS.get(s.choose(1)));
      case 8 -> new Trim();
      case 9 -> new Sync();
      default -> new Cpu("c2");
    };
  }
}
