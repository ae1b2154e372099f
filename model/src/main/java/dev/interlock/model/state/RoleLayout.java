package dev.interlock.model.state;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one thread of a role is packed into a {@code long}, and its body compiled to flat op arrays.
 *
 * <p>The checker visits millions of states; packing each thread into one word makes states small,
 * hashing cheap and symmetry reduction a sort. Fields, low bits first: inside (1 bit), pc, job, one
 * bit per mutex the role locks, a permit count per semaphore the role acquires, and per buffer name
 * the 1-based index of the alloc step that made the live buffer (0: not live).
 */
final class RoleLayout {
  static final int OP_LOCK = 0;
  static final int OP_UNLOCK = 1;
  static final int OP_ACQUIRE = 2;
  static final int OP_RELEASE = 3;
  static final int OP_ALLOC = 4;
  static final int OP_FREE = 5;
  static final int OP_TRIM = 6;
  static final int OP_SYNC = 7;
  static final int OP_KERNEL = 8;
  static final int OP_CPU = 9;

  final Role role;
  final int length;
  final int jobs;

  /** Per pc: op code, first operand (mutex, semaphore or role-local buffer index), permits or bytes. */
  final int[] op;
  final int[] arg;
  final long[] amount;
  final boolean[] async;
  /** Per pc: value the buffer field takes after this alloc. */
  final long[] allocValue;
  /** Per pc: role-local indices of the buffers a kernel uses. */
  final int[][] uses;
  /** Per pc: design-wide interval id, or -1. */
  final int[] interval;

  final int pcShift;
  final long pcMask;
  final int jobShift;
  final long jobMask;
  /** Per design mutex: bit in the word, or -1 when this role never locks it. */
  final int[] mutexBit;
  /** Per design semaphore: shift of the held-permit field, or -1 when this role never acquires it. */
  final int[] permitShift;
  final long[] permitMask;
  /** Role-local buffer names, and per buffer the field's shift and mask (mask 0: never allocated). */
  final List<String> buffers;
  final int[] bufferShift;
  final long[] bufferMask;
  /** Per buffer: size and async flag of the buffer made by the alloc whose 1-based index the field holds. */
  final long[][] bufferBytes;
  final boolean[][] bufferAsync;
  /** Per buffer: pc of each alloc of that buffer, indexed by field value - 1. */
  final int[][] bufferAllocPc;
  final int bits;

  RoleLayout(Design design, Role role, Map<String, Integer> intervalIds) {
    this.role = role;
    this.length = role.body().size();
    this.jobs = role.jobs();
    op = new int[length];
    arg = new int[length];
    amount = new long[length];
    async = new boolean[length];
    allocValue = new long[length];
    uses = new int[length][];
    interval = new int[length];
    Arrays.fill(interval, -1);

    Map<String, Integer> bufferIndex = new LinkedHashMap<>();
    Map<String, List<Integer>> allocsOf = new LinkedHashMap<>();
    for (Step s : role.body()) {
      if (s instanceof Alloc a) {
        allocsOf.computeIfAbsent(a.buffer(), k -> new ArrayList<>());
      }
    }
    for (Step s : role.body()) {
      for (String b : bufferNames(s)) {
        bufferIndex.putIfAbsent(b, bufferIndex.size());
      }
    }
    buffers = List.copyOf(bufferIndex.keySet());

    boolean[] locks = new boolean[design.mutexes().size()];
    boolean[] acquires = new boolean[design.semaphores().size()];
    for (int pc = 0; pc < length; pc++) {
      compile(design, role.body().get(pc), pc, bufferIndex, allocsOf, locks, acquires, intervalIds);
    }

    int shift = 1;
    pcShift = shift;
    int pcBits = bitsFor(length - 1);
    pcMask = mask(pcBits);
    shift += pcBits;
    jobShift = shift;
    int jobBits = bitsFor(jobs);
    jobMask = mask(jobBits);
    shift += jobBits;
    mutexBit = new int[locks.length];
    for (int m = 0; m < locks.length; m++) {
      mutexBit[m] = locks[m] ? shift++ : -1;
    }
    permitShift = new int[acquires.length];
    permitMask = new long[acquires.length];
    for (int s = 0; s < acquires.length; s++) {
      if (acquires[s]) {
        int w = bitsFor(design.semaphores().get(s).permits());
        permitShift[s] = shift;
        permitMask[s] = mask(w);
        shift += w;
      } else {
        permitShift[s] = -1;
      }
    }
    int nb = buffers.size();
    bufferShift = new int[nb];
    bufferMask = new long[nb];
    bufferBytes = new long[nb][];
    bufferAsync = new boolean[nb][];
    bufferAllocPc = new int[nb][];
    for (int b = 0; b < nb; b++) {
      List<Integer> pcs = allocsOf.getOrDefault(buffers.get(b), List.of());
      bufferAllocPc[b] = pcs.stream().mapToInt(Integer::intValue).toArray();
      bufferBytes[b] = pcs.stream().mapToLong(pc -> amount[pc]).toArray();
      bufferAsync[b] = new boolean[pcs.size()];
      for (int i = 0; i < pcs.size(); i++) {
        bufferAsync[b][i] = async[pcs.get(i)];
      }
      int w = pcs.isEmpty() ? 0 : bitsFor(pcs.size());
      bufferShift[b] = shift;
      bufferMask[b] = mask(w);
      shift += w;
    }
    bits = shift;
    if (bits > 64) {
      throw new IllegalArgumentException("role " + role.name() + " needs " + bits
          + " bits of state per thread; at most 64 are supported (fewer buffers, allocs or permits)");
    }
  }

  private void compile(Design design, Step step, int pc, Map<String, Integer> bufferIndex,
      Map<String, List<Integer>> allocsOf, boolean[] locks, boolean[] acquires, Map<String, Integer> intervalIds) {
    step.accept(new Step.Visitor<Void>() {
      @Override
      public Void lock(Lock s) {
        op[pc] = OP_LOCK;
        arg[pc] = design.mutexIndex(s.mutex());
        locks[arg[pc]] = true;
        return null;
      }

      @Override
      public Void unlock(Unlock s) {
        op[pc] = OP_UNLOCK;
        arg[pc] = design.mutexIndex(s.mutex());
        return null;
      }

      @Override
      public Void acquire(Acquire s) {
        op[pc] = OP_ACQUIRE;
        arg[pc] = design.semaphoreIndex(s.semaphore());
        amount[pc] = s.permits();
        acquires[arg[pc]] = true;
        return null;
      }

      @Override
      public Void release(Release s) {
        op[pc] = OP_RELEASE;
        arg[pc] = design.semaphoreIndex(s.semaphore());
        amount[pc] = s.permits();
        return null;
      }

      @Override
      public Void alloc(Alloc s) {
        op[pc] = OP_ALLOC;
        arg[pc] = bufferIndex.get(s.buffer());
        amount[pc] = s.bytes();
        async[pc] = s.async();
        List<Integer> pcs = allocsOf.get(s.buffer());
        pcs.add(pc);
        allocValue[pc] = pcs.size();
        return null;
      }

      @Override
      public Void free(Free s) {
        op[pc] = OP_FREE;
        arg[pc] = bufferIndex.get(s.buffer());
        return null;
      }

      @Override
      public Void trim(Trim s) {
        op[pc] = OP_TRIM;
        return null;
      }

      @Override
      public Void sync(Sync s) {
        op[pc] = OP_SYNC;
        return null;
      }

      @Override
      public Void kernel(Kernel s) {
        op[pc] = OP_KERNEL;
        uses[pc] = s.uses().stream().mapToInt(bufferIndex::get).toArray();
        interval[pc] = intervalIds.get(s.name());
        return null;
      }

      @Override
      public Void cpu(Cpu s) {
        op[pc] = OP_CPU;
        interval[pc] = intervalIds.get(s.name());
        return null;
      }

      @Override
      public Void syncStream(dev.interlock.model.step.SyncStream s) {
        throw new UnsupportedOperationException(s.text());
      }

      @Override
      public Void ifFree(dev.interlock.model.step.IfFree s) {
        throw new UnsupportedOperationException(s.text());
      }

      @Override
      public Void spawn(dev.interlock.model.step.Spawn s) {
        throw new UnsupportedOperationException(s.text());
      }

      @Override
      public Void join(dev.interlock.model.step.Join s) {
        throw new UnsupportedOperationException(s.text());
      }

      @Override
      public Void signal(dev.interlock.model.step.Signal s) {
        throw new UnsupportedOperationException(s.text());
      }

      @Override
      public Void await(dev.interlock.model.step.Wait s) {
        throw new UnsupportedOperationException(s.text());
      }
    });
  }

  /** Buffer names a step mentions. */
  static List<String> bufferNames(Step s) {
    if (s instanceof Alloc a) {
      return List.of(a.buffer());
    }
    if (s instanceof Free f) {
      return List.of(f.buffer());
    }
    if (s instanceof Kernel k) {
      return k.uses();
    }
    return List.of();
  }

  static int bitsFor(long maxValue) {
    return maxValue <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(maxValue);
  }

  private static long mask(int width) {
    return width == 0 ? 0 : width == 64 ? -1L : (1L << width) - 1;
  }

  int pc(long w) {
    return (int) ((w >>> pcShift) & pcMask);
  }

  int job(long w) {
    return (int) ((w >>> jobShift) & jobMask);
  }

  boolean finished(long w) {
    return job(w) == jobs;
  }

  static boolean inside(long w) {
    return (w & 1L) != 0;
  }

  boolean holds(long w, int mutex) {
    int bit = mutexBit[mutex];
    return bit >= 0 && (w & (1L << bit)) != 0;
  }

  int permits(long w, int semaphore) {
    int shift = permitShift[semaphore];
    return shift < 0 ? 0 : (int) ((w >>> shift) & permitMask[semaphore]);
  }

  long withPermits(long w, int semaphore, long n) {
    int shift = permitShift[semaphore];
    return (w & ~(permitMask[semaphore] << shift)) | (n << shift);
  }

  /** The buffer field: 0 when not live, else the 1-based index of the alloc that made it. */
  int buffer(long w, int b) {
    return (int) ((w >>> bufferShift[b]) & bufferMask[b]);
  }

  long withBuffer(long w, int b, long value) {
    return (w & ~(bufferMask[b] << bufferShift[b])) | (value << bufferShift[b]);
  }

  long bufferBytes(long w, int b) {
    int v = buffer(w, b);
    return v == 0 ? 0 : bufferBytes[b][v - 1];
  }

  /** Index of the first live buffer, or -1. */
  int firstLiveBuffer(long w) {
    for (int b = 0; b < buffers.size(); b++) {
      if (buffer(w, b) != 0) {
        return b;
      }
    }
    return -1;
  }

  /** The word for position pc of job, keeping held mutexes, permits and buffers; inside cleared. */
  long at(long w, int job, int pc) {
    long cleared = w & ~1L & ~(pcMask << pcShift) & ~(jobMask << jobShift);
    return cleared | ((long) pc << pcShift) | ((long) job << jobShift);
  }
}
