package dev.interlock.model.design;

import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
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
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * Valid random designs with every construct of the language ({@code on oom} handlers nesting if blocks and the
 * reverse included), for the printer's round trip: tasks
 * spawn only tasks declared after them (so none can spawn itself), kept names always have one
 * size, device buffers are never allocated, and a body that waits for an event signals it too.
 */
final class RandomDesigns {
  private static final List<String> BUFFERS = List.of("b0", "b1");
  private static final List<String> KEPT = List.of("k0", "k1");
  private static final List<String> EVENTS = List.of("e0", "e1");

  private RandomDesigns() {}

  static Design design(Random rnd) {
    long vram = (1 + rnd.nextInt(32)) * Sizes.GIB + (rnd.nextBoolean() ? 0 : rnd.nextInt(1 << 20));
    long threshold = switch (rnd.nextInt(4)) {
      case 0 -> 0;
      case 1 -> Design.THRESHOLD_MAX;
      case 2 -> (1 + rnd.nextInt(8)) * Sizes.GIB;
      default -> 1 + rnd.nextInt(1 << 30);
    };
    List<ResidentBuffer> buffers = new ArrayList<>();
    for (int i = rnd.nextInt(3); i > 0; i--) {
      buffers.add(new ResidentBuffer("d" + i, 1 + rnd.nextInt(256) * Sizes.MIB));
    }
    List<String> mutexes = rnd.nextBoolean() ? List.of("m0") : List.of("m0", "m1");
    List<Semaphore> semaphores = rnd.nextBoolean() ? List.of() : List.of(new Semaphore("s0", rnd.nextInt(4)));
    int taskCount = rnd.nextInt(4);
    List<String> taskNames = new ArrayList<>();
    for (int i = 0; i < taskCount; i++) {
      taskNames.add("t" + i);
    }
    Context c = new Context(rnd, mutexes, semaphores, buffers, taskNames);
    List<Role> roles = new ArrayList<>();
    for (int i = 1 + rnd.nextInt(2); i > 0; i--) {
      roles.add(new Role("r" + i, 1 + rnd.nextInt(3), 1 + rnd.nextInt(3), c.body(0)));
    }
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < taskCount; i++) {
      tasks.add(new Task(taskNames.get(i), c.body(i + 1)));
    }
    return new Design("random", vram, threshold, buffers, mutexes, semaphores, roles, tasks);
  }

  private record Context(Random rnd, List<String> mutexes, List<Semaphore> semaphores, List<ResidentBuffer> buffers,
      List<String> tasks) {
    /** A non-empty body that may spawn and join the tasks from {@code firstTask} on. */
    List<Step> body(int firstTask) {
      List<Step> body = new ArrayList<>();
      for (int n = 1 + rnd.nextInt(8); n > 0; n--) {
        body.add(step(firstTask, 0));
      }
      Set<String> waited = new LinkedHashSet<>();
      Set<String> signalled = new LinkedHashSet<>();
      Steps.forEach(body, s -> {
        if (s instanceof Wait w) {
          waited.add(w.event());
        } else if (s instanceof Signal sig) {
          signalled.add(sig.event());
        }
      });
      waited.removeAll(signalled);
      waited.forEach(e -> body.add(new Signal(e)));
      return body;
    }

    private Step step(int firstTask, int depth) {
      switch (rnd.nextInt(depth < 2 ? 16 : 15)) {
        case 0:
          return new Lock(pick(mutexes));
        case 1:
          return new Unlock(pick(mutexes));
        case 2:
          if (semaphores.isEmpty()) {
            return new Trim();
          }
          return rnd.nextBoolean() ? new Acquire("s0", 1 + rnd.nextInt(3)) : new Release("s0", 1 + rnd.nextInt(3));
        case 3:
          return onOom(new Alloc(pick(BUFFERS), 1 + rnd.nextInt(1 << 20) * (long) rnd.nextInt(4096), rnd.nextBoolean()),
              firstTask, depth);
        case 4: {
          int k = rnd.nextInt(KEPT.size());
          return onOom(new Alloc(KEPT.get(k), (k + 1) * Sizes.GIB, rnd.nextBoolean(), true), firstTask, depth);
        }
        case 5:
          return new Free(rnd.nextBoolean() ? pick(BUFFERS) : pick(KEPT));
        case 6: {
          List<String> names = new ArrayList<>(List.of("b0", "k1", "unallocated"));
          buffers.forEach(b -> names.add(b.name()));
          List<String> uses = new ArrayList<>();
          names.forEach(b -> {
            if (rnd.nextInt(3) == 0) {
              uses.add(b);
            }
          });
          return new Kernel("k", uses, rnd.nextBoolean() ? Optional.empty() : Optional.of(Duration.ofMillis(1 + rnd.nextInt(999))));
        }
        case 7:
          return new Cpu("c", rnd.nextBoolean() ? Optional.empty() : Optional.of(Duration.ofNanos(1 + rnd.nextInt(1_000_000))));
        case 8:
          return rnd.nextBoolean() ? new Sync() : new SyncStream();
        case 9:
        case 10:
          if (firstTask >= tasks.size()) {
            return new Trim();
          }
          String t = tasks.get(firstTask + rnd.nextInt(tasks.size() - firstTask));
          return rnd.nextInt(3) == 0 ? new Join(t) : new Spawn(t);
        case 11:
          return new Signal(pick(EVENTS));
        case 12:
          return new Wait(pick(EVENTS));
        case 13:
          return new Trim();
        case 14:
          return new Sync();
        default: {
          List<Step> then = new ArrayList<>();
          List<Step> otherwise = new ArrayList<>();
          for (int n = rnd.nextInt(3); n > 0; n--) {
            then.add(step(firstTask, depth + 1));
          }
          for (int n = rnd.nextInt(3); n > 0; n--) {
            otherwise.add(step(firstTask, depth + 1));
          }
          return new IfFree(rnd.nextBoolean(), 1 + rnd.nextInt(16) * Sizes.GIB, then, otherwise);
        }
      }
    }

    /** Alloc a, its failure unhandled, ignored, or handled by up to two steps (nesting while depth allows). */
    private Alloc onOom(Alloc a, int firstTask, int depth) {
      return switch (rnd.nextInt(3)) {
        case 0 -> a;
        case 1 -> a.withOnOom(OnOom.IGNORE);
        default -> {
          List<Step> handler = new ArrayList<>();
          for (int n = depth < 2 ? rnd.nextInt(3) : 0; n > 0; n--) {
            handler.add(step(firstTask, depth + 1));
          }
          yield a.withOnOom(new OnOom.Handle(handler));
        }
      };
    }

    private String pick(List<String> names) {
      return names.get(rnd.nextInt(names.size()));
    }
  }
}
