package dev.interlock.properties.model;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
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
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.Source;
import dev.interlock.properties.engine.Unsatisfiable;
import java.util.ArrayList;
import java.util.List;

/**
 * Random designs made to catch a wrong partial-order reduction: one role of 2-4 workers (sometimes a second role of
 * one), short bodies where threads race on what the reduction must not treat as local. Sizes sit near the vram line
 * so that allocations fail in some orders only; most allocations are async, under a pool threshold of 0, 1GiB or max,
 * so that the pool's per-stream caches (and its ties) matter; two tasks share the role's buffers and events: {@code t0}
 * works in, frees or allocates the role's buffer {@code b0}, signals {@code e0}, and may spawn or join {@code t1};
 * {@code t1} may join {@code t0}; a kept buffer {@code k0} is sometimes kept over jobs; {@code if free} guards both
 * ways; {@code sync} and {@code sync stream} appear.
 *
 * <p>Every step kind whose locality {@code Model.localStep} decides appears next to a step of another thread it
 * would not commute with, if it were declared local by mistake (SearchReductionProperties' mutation tests).
 */
public final class ReductionDesigns {
  private static final long GIB = Sizes.GIB;

  private ReductionDesigns() {}

  /** The generator. A generated body that the design rules reject (rarely) makes the try invalid, not broken. */
  public static Gen<Design> designs() {
    return ReductionDesigns::design;
  }

  private static Design design(Source s) {
    long vram = (3 + s.choose(2)) * GIB;
    long threshold = switch (s.choose(2)) {
      case 0 -> 0;
      case 1 -> GIB;
      default -> Design.THRESHOLD_MAX;
    };
    boolean async = s.chance(3, 4);
    boolean tasks = s.chance(2, 3);
    boolean kept = s.chance(1, 3);
    List<Task> ts = new ArrayList<>();
    if (tasks) {
      ts.add(new Task("t0", taskBody(s, vram, async, true)));
      ts.add(new Task("t1", taskBody(s, vram, async, false)));
    }
    int workers = 2 + s.choose(2);
    List<Role> roles = new ArrayList<>();
    roles.add(new Role("r0", workers, 1 + s.choose(1), roleBody(s, vram, async, tasks, kept)));
    if (s.chance(3, 4)) {
      // mostly plain where r0 is async: a plain allocation fails beside pending async frees that a sync would settle
      roles.add(new Role("r1", 1, 1, roleBody(s, vram, async && s.chance(1, 3), false, false)));
    }
    List<ResidentBuffer> device = s.chance(1, 4) ? List.of(new ResidentBuffer("d0", GIB)) : List.of();
    try {
      return new Design("reduction", vram, threshold, device, List.of("m0"), List.of(), roles, ts);
    } catch (IllegalArgumentException e) {
      throw new Unsatisfiable("not a design: " + e.getMessage(), e);
    }
  }

  private static long size(Source s, long vram) {
    return switch (s.choose(3)) {
      case 0 -> GIB;
      case 1 -> vram / 2 / GIB * GIB;
      default -> vram - GIB;
    };
  }

  private static Alloc alloc(Source s, String buffer, long vram, boolean async) {
    Alloc a = new Alloc(buffer, size(s, vram), async);
    return s.chance(1, 4) ? a.withOnOom(OnOom.IGNORE) : a;
  }

  private static List<Step> roleBody(Source s, long vram, boolean async, boolean tasks, boolean kept) {
    List<Step> body = new ArrayList<>();
    boolean spawned = false;
    if (tasks && s.chance(1, 4)) {
      body.add(new Spawn("t1")); // t1 may join t0 before or after the role spawns it
    }
    if (tasks && s.chance(3, 4)) {
      body.add(new Spawn("t0"));
      spawned = true;
    }
    boolean keptInside = kept && s.chance(1, 2);
    if (kept && !keptInside) {
      body.add(new Alloc("k0", GIB, async, true));
    }
    boolean locked = s.chance(3, 4);
    if (locked) {
      body.add(new Lock("m0"));
    }
    if (keptInside) {
      body.add(new Alloc("k0", GIB, async, true));
    }
    body.add(alloc(s, "b0", vram, async && s.chance(3, 4)));
    if (s.chance(1, 3)) {
      body.add(new SyncStream());
    }
    body.add(new Kernel("k", kept && s.chance(1, 2) ? List.of("b0", "k0") : List.of("b0")));
    if (spawned && s.chance(1, 3)) {
      body.add(new Wait("e0"));
    }
    body.add(new Free("b0"));
    if (locked) {
      body.add(new Unlock("m0"));
    }
    // after the locked section: what another thread's allocation races with
    switch (s.choose(5)) {
      case 0 -> body.add(new IfFree(s.chance(1, 2), size(s, vram), List.of(alloc(s, "b1", vram, async && s.chance(1, 2)),
          new Free("b1")), s.chance(1, 2) ? List.of(new Cpu("c")) : List.of()));
      case 1 -> body.add(new Sync());
      case 2 -> body.add(new SyncStream());
      case 3 -> body.add(new Kernel("k3", List.of()));
      default -> body.add(new Cpu("c"));
    }
    if (spawned && s.chance(1, 2)) {
      body.add(new Join("t0"));
    }
    if (tasks && s.chance(1, 3)) {
      body.add(new Spawn("t0")); // again, or for the first time: the task outlives the job's thread
    } else if (s.chance(1, 2)) {
      body.add(new Cpu("c"));
    }
    return body;
  }

  /** t0 ({@code first}) touches the role's b0 and e0 and may spawn or join t1; t1 may join t0 or work in b1. */
  private static List<Step> taskBody(Source s, long vram, boolean async, boolean first) {
    List<Step> body = new ArrayList<>();
    int n = 1 + s.choose(2);
    boolean signalled = false;
    for (int i = 0; i < n; i++) {
      switch (s.choose(first ? 6 : 3)) {
        case 0 -> body.add(new Cpu(first ? "c2" : "c3"));
        case 1 -> {
          body.add(alloc(s, "b1", vram, async && s.chance(1, 2)));
          body.add(new Kernel("k2", List.of("b1")));
          body.add(new Free("b1"));
        }
        case 2 -> body.add(first ? new Spawn("t1") : new Join("t0"));
        case 3 -> body.add(new Kernel("k2", List.of("b0")));
        case 4 -> body.add(new Free("b0"));
        case 5 -> {
          body.add(new Join("t1"));
        }
        default -> {
          body.add(new Lock("m0"));
          body.add(new Cpu("c2"));
          body.add(new Unlock("m0"));
        }
      }
      if (first && !signalled && s.chance(1, 2)) {
        body.add(new Signal("e0"));
        signalled = true;
      }
    }
    if (first && !signalled) {
      body.add(new Signal("e0"));
    }
    return body;
  }
}
