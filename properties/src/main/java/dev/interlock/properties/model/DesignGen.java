package dev.interlock.properties.model;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Semaphore;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.Source;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Random designs over a small vocabulary: 1-3 roles of 1-2 threads, 1-2 jobs, bodies of 1-7 steps
 * over two mutexes, one semaphore, two buffer names, a kernel and a cpu interval.
 *
 * <p>Small on purpose: every generated design is exhaustively checkable in milliseconds, and the
 * vocabulary reaches every verdict (OOM, DEADLOCK, LEAK, USE_AFTER_FREE, BAD_FREE,
 * UNLOCK_NOT_HELD, RELEASE_EXCESS). Bodies are biased toward well-bracketed steps (lock before
 * unlock, alloc before free) so that SAFE designs are common too.
 */
public final class DesignGen {
  private static final List<String> MUTEXES = List.of("m0", "m1");
  private static final List<String> BUFFERS = List.of("b0", "b1");

  private DesignGen() {}

  /** The generator. */
  public static Gen<Design> designs() {
    return DesignGen::design;
  }

  private static Design design(Source s) {
    long vram = (2 + s.choose(6)) * Sizes.GIB;
    int permits = s.choose(3);
    int roles = 1 + s.choose(2);
    List<Role> rs = new ArrayList<>();
    for (int r = 0; r < roles; r++) {
      int threads = 1 + s.choose(1);
      int jobs = 1 + s.choose(1);
      rs.add(new Role("r" + r, threads, jobs, body(s)));
    }
    return new Design("random", vram, MUTEXES, List.of(new Semaphore("sem", permits)), rs);
  }

  private static List<Step> body(Source s) {
    List<Step> body = new ArrayList<>();
    int n = 1 + s.choose(6);
    while (body.size() < n) {
      if (s.chance(1, 2)) {
        bracket(s, body);
      } else {
        body.add(single(s));
      }
    }
    return body;
  }

  /** A well-bracketed pair around a step: lock/unlock, acquire/release or alloc/free. */
  private static void bracket(Source s, List<Step> body) {
    Step inner = single(s);
    switch (s.choose(2)) {
      case 0 -> {
        String m = MUTEXES.get(s.choose(1));
        body.add(new Lock(m));
        body.add(inner);
        body.add(new Unlock(m));
      }
      case 1 -> {
        int k = 1 + s.choose(1);
        body.add(new Acquire("sem", k));
        body.add(inner);
        body.add(new Release("sem", k));
      }
      default -> {
        String b = BUFFERS.get(s.choose(1));
        body.add(new Alloc(b, (1 + s.choose(3)) * Sizes.GIB, s.chance(1, 2)));
        body.add(inner instanceof Kernel ? new Kernel("k", List.of(b)) : inner);
        body.add(new Free(b));
      }
    }
  }

  private static Step single(Source s) {
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
