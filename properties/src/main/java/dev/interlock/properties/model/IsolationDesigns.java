package dev.interlock.properties.model;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.design.Task;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.Source;
import dev.interlock.properties.engine.Unsatisfiable;
import java.util.ArrayList;
import java.util.List;

/**
 * Random designs near memory isolation (MemoryIsolation in the model): workers that do their device-memory work under
 * the mutex {@code m0}, as cuzk's do under gpu_mtx, with async and plain allocations near the vram line, {@code on oom}
 * handlers and {@code ignore}, {@code sync}, {@code trim}, {@code sync stream}, {@code if free} whose else branch
 * fails (a second {@code unlock}), and a task {@code t0} that allocates on its own stream. Each way of breaking a
 * condition of the argument is drawn now and then, so that most designs are isolated and the rest break one
 * condition:
 * <ul>
 *   <li>memory steps outside the mutex: an {@code if free}, alloc, {@code sync} or {@code trim} before {@code lock m0},
 *       or the task joined after {@code unlock m0};
 *   <li>a buffer live between two locked sections (freed in the second);
 *   <li>an async free with no synchronization before {@code unlock m0} (no {@code sync stream}, {@code sync} or
 *       {@code trim} in the whole locked section), beside plain allocations;
 *   <li>an {@code if free} under the mutex with no {@code trim} before it, under a pool that keeps what it caches;
 *   <li>the task's async free pending while the role allocates asynchronously.
 * </ul>
 */
public final class IsolationDesigns {
  private static final long GIB = Sizes.GIB;

  private IsolationDesigns() {}

  /** The generator. A generated body that the design rules reject (rarely) makes the try invalid, not broken. */
  public static Gen<Design> designs() {
    return IsolationDesigns::design;
  }

  private static Design design(Source s) {
    long vram = (8 + s.choose(4)) * GIB;
    long threshold = switch (s.choose(2)) {
      case 0 -> 0;
      case 1 -> 2 * GIB;
      default -> Design.THRESHOLD_MAX;
    };
    List<Task> tasks = new ArrayList<>();
    boolean task = s.chance(1, 3);
    if (task) {
      List<Step> t = new ArrayList<>();
      t.add(alloc(s, "x", vram, s.chance(3, 4)));
      t.add(new Kernel("kx", List.of("x")));
      t.add(new Free("x"));
      if (s.chance(1, 2)) {
        t.add(new SyncStream());
      }
      tasks.add(new Task("t0", t));
    }
    List<Role> roles = new ArrayList<>();
    roles.add(new Role("r0", 2, 1 + (s.chance(1, 3) ? 1 : 0), body(s, vram, task)));
    if (s.chance(1, 3)) {
      roles.add(new Role("r1", 1, 1, body(s, vram, task && s.chance(1, 2))));
    }
    try {
      return new Design("isolation", vram, threshold, List.of(), List.of("m0"), List.of(), roles, tasks);
    } catch (IllegalArgumentException e) {
      throw new Unsatisfiable("not a design: " + e.getMessage(), e);
    }
  }

  private static long size(Source s, long vram) {
    return switch (s.choose(2)) {
      case 0 -> 2 * GIB;
      case 1 -> vram / 2 + GIB;
      default -> vram - 2 * GIB;
    };
  }

  private static Alloc alloc(Source s, String buffer, long vram, boolean async) {
    Alloc a = new Alloc(buffer, size(s, vram), async);
    return s.chance(1, 5) ? a.withOnOom(OnOom.IGNORE) : a;
  }

  /** An {@code if free} whose else branch unlocks twice: UNLOCK_NOT_HELD where the bytes it counts are too few. */
  private static IfFree guard(Source s, long vram) {
    long bytes = vram - (1 + s.choose(2)) * GIB;
    return new IfFree(true, bytes, List.of(new Cpu("c")), List.of(new Unlock("m0"), new Unlock("m0")));
  }

  private static List<Step> body(Source s, long vram, boolean task) {
    List<Step> body = new ArrayList<>();
    if (s.chance(1, 2)) {
      body.add(new Cpu("c"));
    }
    if (s.chance(1, 8)) { // a memory step outside the mutex
      switch (s.choose(3)) {
        case 0 -> body.add(guard(s, vram));
        case 1 -> {
          body.add(alloc(s, "o", vram, s.chance(1, 2)));
          body.add(new Free("o"));
        }
        case 2 -> body.add(new Sync());
        default -> body.add(new Trim());
      }
    }
    body.add(new Lock("m0"));
    // now and then no synchronization at all: what the worker frees asynchronously is still pending at the unlock
    boolean leavePending = s.chance(1, 5);
    if (!leavePending && s.chance(1, 3)) {
      body.add(new Trim());
    }
    if (!leavePending && s.chance(1, 4)) {
      body.add(new Sync());
    }
    if (s.chance(1, 4)) {
      body.add(guard(s, vram));
    }
    List<String> deferred = new ArrayList<>();
    boolean joinOutside = false;
    int ops = 1 + s.choose(2);
    for (int i = 0; i < ops; i++) {
      String b = "b" + i;
      if (task && s.chance(1, 3)) {
        body.add(new Spawn("t0"));
        if (s.chance(7, 8)) {
          body.add(new Join("t0"));
        } else {
          joinOutside = true;
        }
        continue;
      }
      Alloc a = alloc(s, b, vram, s.chance(2, 3));
      if (s.chance(1, 6)) { // a handled failure: the handler works in what is left
        a = a.withOnOom(new OnOom.Handle(List.of(new Cpu("h")), List.of()));
      }
      body.add(a);
      if (!leavePending && s.chance(1, 3) && a.async()) {
        body.add(new SyncStream());
      }
      body.add(new Kernel("k", List.of(b)));
      if (s.chance(1, 8)) {
        deferred.add(b); // freed in a second locked section: live between the two
      } else {
        body.add(new Free(b));
        if (!leavePending && s.chance(1, 3)) {
          body.add(new SyncStream());
        }
      }
    }
    if (!leavePending && s.chance(4, 5)) {
      body.add(new SyncStream());
    }
    body.add(new Unlock("m0"));
    if (joinOutside) {
      body.add(new Join("t0"));
    }
    if (!deferred.isEmpty()) {
      body.add(new Lock("m0"));
      deferred.forEach(b -> body.add(new Free(b)));
      body.add(new SyncStream());
      body.add(new Unlock("m0"));
    }
    if (s.chance(1, 2)) {
      body.add(new Cpu("c"));
    }
    return body;
  }
}
