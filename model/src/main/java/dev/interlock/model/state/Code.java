package dev.interlock.model.state;

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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A body (a role's or a task's) compiled to flat arrays indexed by pc, the step's index in
 * {@link dev.interlock.model.step.Steps#flatten textual order}.
 *
 * <p>An {@code if} step jumps to its first {@code then} step or its first {@code else} step; the
 * last step of a branch continues after the whole block. An alloc whose failure is handled jumps, when it fails, to
 * its handler's first step ({@link #oomTarget}), and when it succeeds to its else steps if it has any; the last step
 * of either continues after the alloc block. A pc equal to
 * {@link #length} is the end of the body.
 */
final class Code {
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
  static final int OP_SYNC_STREAM = 10;
  static final int OP_IF = 11;
  static final int OP_SPAWN = 12;
  static final int OP_JOIN = 13;
  static final int OP_SIGNAL = 14;
  static final int OP_WAIT = 15;
  static final int OP_CHOOSE = 16;

  /** Buffer reference kinds for {@link #ref}: a job's buffer, a kept buffer, a device buffer. */
  static final int JOB = 0;
  static final int KEPT = 1;
  static final int RESIDENT = 2;

  /** What an alloc's failure does, for {@link #onOom}. */
  static final int ON_OOM_FAIL = 0;
  static final int ON_OOM_IGNORE = 1;
  static final int ON_OOM_HANDLE = 2;

  final List<Step> steps;
  final int length;
  final int[] op;
  /** Mutex, semaphore, buffer, event or task-name index, by op. */
  final int[] arg;
  /** Permits, bytes, or the {@code if}'s size. */
  final long[] amount;
  /** For alloc and free: the buffer's kind ({@link #JOB}, {@link #KEPT}); for alloc, the field value it sets. */
  final int[] ref;
  final long[] allocValue;
  final boolean[] async;
  /** Per pc: the pc after this step (an {@code if}: its then target). */
  final int[] next;
  /** Per {@code if} or {@code choose} pc: the pc of its else branch or second path (or after the block). */
  final int[] elseTarget;
  final boolean[] atLeast;
  /** Per alloc pc: what a failure does ({@link #ON_OOM_FAIL}, {@link #ON_OOM_IGNORE}, {@link #ON_OOM_HANDLE}). */
  final int[] onOom;
  /** Per alloc pc whose failure is handled or ignored: the pc a failure continues at (the handler, or after it). */
  final int[] oomTarget;
  /** Per kernel pc: kind and index of each used buffer, as pairs. */
  final int[][] uses;
  /** Per pc: design-wide interval id, or -1. */
  final int[] interval;

  Code(List<Step> body, Names names) {
    List<Step> flat = new ArrayList<>();
    dev.interlock.model.step.Steps.forEach(body, flat::add);
    steps = List.copyOf(flat);
    length = steps.size();
    op = new int[length];
    arg = new int[length];
    amount = new long[length];
    ref = new int[length];
    allocValue = new long[length];
    async = new boolean[length];
    next = new int[length];
    elseTarget = new int[length];
    atLeast = new boolean[length];
    onOom = new int[length];
    oomTarget = new int[length];
    uses = new int[length][];
    interval = new int[length];
    Arrays.fill(interval, -1);
    layout(body, 0, length);
    for (int pc = 0; pc < length; pc++) {
      compile(steps.get(pc), pc, names);
    }
  }

  /** Sets next, elseTarget and oomTarget for body starting at pc {@code from}, continuing at {@code after}; returns its end. */
  private int layout(List<Step> body, int from, int after) {
    int pc = from;
    for (int i = 0; i < body.size(); i++) {
      Step s = body.get(i);
      int here = pc;
      List<List<Step>> inner = dev.interlock.model.step.Steps.nested(s);
      int[] starts = new int[inner.size()];
      int end = here + 1;
      for (int b = 0; b < inner.size(); b++) {
        starts[b] = end;
        end += dev.interlock.model.step.Steps.flatten(inner.get(b)).size();
      }
      int cont = i + 1 < body.size() ? end : after;
      for (int b = 0; b < inner.size(); b++) {
        layout(inner.get(b), starts[b], cont);
      }
      next[here] = cont;
      if (s instanceof IfFree f) {
        next[here] = f.then().isEmpty() ? cont : starts[0];
        elseTarget[here] = f.otherwise().isEmpty() ? cont : starts[1];
      } else if (s instanceof dev.interlock.model.step.Choose c) {
        next[here] = c.first().isEmpty() ? cont : starts[0];
        elseTarget[here] = c.second().isEmpty() ? cont : starts[1];
      } else if (s instanceof Alloc a && a.onOom() instanceof dev.interlock.model.step.OnOom.Handle h) {
        oomTarget[here] = h.steps().isEmpty() ? cont : starts[0];
        next[here] = h.success().isEmpty() ? cont : starts[1];
      } else if (s instanceof Alloc a && a.fallible()) {
        oomTarget[here] = cont;
      }
      pc = end;
    }
    return pc;
  }

  private void compile(Step step, int pc, Names names) {
    step.accept(new Step.Visitor<Void>() {
      @Override
      public Void lock(Lock s) {
        op[pc] = OP_LOCK;
        arg[pc] = names.mutex(s.mutex());
        return null;
      }

      @Override
      public Void unlock(Unlock s) {
        op[pc] = OP_UNLOCK;
        arg[pc] = names.mutex(s.mutex());
        return null;
      }

      @Override
      public Void acquire(Acquire s) {
        op[pc] = OP_ACQUIRE;
        arg[pc] = names.semaphore(s.semaphore());
        amount[pc] = s.permits();
        return null;
      }

      @Override
      public Void release(Release s) {
        op[pc] = OP_RELEASE;
        arg[pc] = names.semaphore(s.semaphore());
        amount[pc] = s.permits();
        return null;
      }

      @Override
      public Void alloc(Alloc s) {
        op[pc] = OP_ALLOC;
        ref[pc] = s.keep() ? KEPT : JOB;
        arg[pc] = names.buffer(s.buffer(), s.keep());
        amount[pc] = s.bytes();
        async[pc] = s.async();
        allocValue[pc] = names.allocValue(s);
        onOom[pc] = s.onOom() instanceof dev.interlock.model.step.OnOom.Ignore ? ON_OOM_IGNORE
            : s.onOom() instanceof dev.interlock.model.step.OnOom.Handle ? ON_OOM_HANDLE : ON_OOM_FAIL;
        return null;
      }

      @Override
      public Void free(Free s) {
        op[pc] = OP_FREE;
        ref[pc] = names.isKept(s.buffer()) ? KEPT : JOB;
        arg[pc] = names.buffer(s.buffer(), ref[pc] == KEPT);
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
      public Void syncStream(SyncStream s) {
        op[pc] = OP_SYNC_STREAM;
        return null;
      }

      @Override
      public Void kernel(Kernel s) {
        op[pc] = OP_KERNEL;
        int[] u = new int[2 * s.uses().size()];
        for (int i = 0; i < s.uses().size(); i++) {
          String b = s.uses().get(i);
          u[2 * i] = names.isResident(b) ? RESIDENT : names.isKept(b) ? KEPT : JOB;
          u[2 * i + 1] = u[2 * i] == RESIDENT ? 0 : names.buffer(b, u[2 * i] == KEPT);
        }
        uses[pc] = u;
        interval[pc] = names.interval(s.name());
        return null;
      }

      @Override
      public Void cpu(Cpu s) {
        op[pc] = OP_CPU;
        interval[pc] = names.interval(s.name());
        return null;
      }

      @Override
      public Void ifFree(IfFree s) {
        op[pc] = OP_IF;
        amount[pc] = s.bytes();
        atLeast[pc] = s.atLeast();
        return null;
      }

      @Override
      public Void choose(dev.interlock.model.step.Choose s) {
        op[pc] = OP_CHOOSE;
        return null;
      }

      @Override
      public Void spawn(Spawn s) {
        op[pc] = OP_SPAWN;
        arg[pc] = names.task(s.task());
        return null;
      }

      @Override
      public Void join(Join s) {
        op[pc] = OP_JOIN;
        arg[pc] = names.task(s.task());
        return null;
      }

      @Override
      public Void signal(Signal s) {
        op[pc] = OP_SIGNAL;
        arg[pc] = names.event(s.event());
        return null;
      }

      @Override
      public Void await(Wait s) {
        op[pc] = OP_WAIT;
        arg[pc] = names.event(s.event());
        return null;
      }
    });
  }

  /** The name tables a role's codes share: buffers, events, tasks, and the design's mutexes, semaphores, intervals. */
  interface Names {
    int mutex(String name);

    int semaphore(String name);

    int buffer(String name, boolean kept);

    boolean isKept(String name);

    boolean isResident(String name);

    long allocValue(Alloc a);

    int event(String name);

    int task(String name);

    int interval(String name);
  }
}
