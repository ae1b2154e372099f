package dev.interlock.model.state;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.RoleResources;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.SpawnTree;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Step;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How one worker of a role (its role thread, and the task threads its jobs spawn) is packed into a
 * block of {@code long}s, and its bodies compiled.
 *
 * <p>The checker visits millions of states; packing keeps states small, hashing cheap and symmetry
 * reduction a sort of blocks. A worker has: its role thread (inside, pc, job, mutexes, permits,
 * stream cache), its kept buffers, and per job frame the job's buffers, events, the last spawned
 * instance of each task, and one task thread per {@link SpawnTree} node (status, inside, pc,
 * mutexes, permits, stream cache). A role that spawns nothing has one frame; one that spawns has a
 * frame per job, since a job's tasks may outlive the job's thread.
 */
final class WorkerLayout {
  static final int IDLE = 0;
  static final int RUNNING = 1;
  static final int DONE = 2;

  /** One thread of a worker: the role thread (node -1) or a task thread of one frame. */
  static final class Slot {
    final Code code;
    final int frame;
    final int node;
    final Field inside;
    final Field pc;
    final Field status;
    final Field cache;
    /** The part of {@link #cache} that a synchronization has seen freed (DeviceMemory's settled bytes). */
    final Field settled;
    final Field[] mutex;
    final Field[] permits;

    Slot(Code code, int frame, int node, Field inside, Field pc, Field status, Field cache, Field settled,
        Field[] mutex, Field[] permits) {
      this.code = code;
      this.frame = frame;
      this.node = node;
      this.inside = inside;
      this.pc = pc;
      this.status = status;
      this.cache = cache;
      this.settled = settled;
      this.mutex = mutex;
      this.permits = permits;
    }
  }

  final Role role;
  final int jobs;
  /** The role thread runs its body without end: no job counter, one frame, kept buffers never released. */
  final boolean loops;
  final SpawnTree tree;
  final int frames;
  final int nodes;
  final Code main;
  /** Per node: its task's code; per node + 1 (0: the role thread) and pc: the node a spawn there starts. */
  final Code[] nodeCode;
  final int[][] childAt;
  final List<String> jobBuffers;
  final List<String> keptBuffers;
  final List<String> events;
  final List<String> tasks;
  /** Per job or kept buffer: size and async flag of the buffer made by the alloc whose 1-based index the field holds. */
  final List<List<Alloc>> jobAllocs;
  final List<List<Alloc>> keptAllocs;
  /** Per job or kept buffer: the field value that marks it missing, or 0 ({@link RoleResources#jobMissing}). */
  final long[] jobMissing;
  final long[] keptMissing;
  /** Whether some buffer of this layout can be missing. */
  final boolean anyMissing;
  /** Per task index: its nodes in ordinal order. */
  final int[][] taskNodes;
  final int[] nodeTask;

  final Slot[] slots;
  final Field job;
  final Field[] kept;
  final Field[][] frameBuffer;
  final Field[][] frameEvent;
  final Field[][] frameLast;
  final int width;
  /** Per block word: how many of its low bits fields use (the checker's compact state encoding packs only those). */
  final int[] wordBits;
  /** Per frame and block word: the bits of that frame's job buffers (a job leaks when any is set at its end). */
  final long[][] frameBufferBits;
  /** Per frame and block word: the bits a closing frame clears (events, spawn records, task threads' status and pc). */
  final long[][] frameClearBits;
  /**
   * Per spawn-tree node + 1 (0: the role thread): the tasks that node's thread, or any thread it spawns, spawns or
   * joins. A spawn or join of task T writes or reads the frame's record of T's last instance, which only these
   * threads share (see {@code Model.localStep}).
   */
  final BitSet[] touchedTasks;
  /**
   * Per slot, per pc: whether the kernel there uses a job or kept buffer that another slot's body allocates or frees,
   * so that its launch (which reads the buffer) depends on that thread.
   */
  final boolean[][] sharedUse;

  WorkerLayout(Design design, Role role, Map<String, Integer> intervalIds, int cacheBits) {
    this.role = role;
    this.jobs = role.jobs();
    this.loops = role.loops();
    this.tree = SpawnTree.of(design, role);
    this.nodes = tree.size();
    if (loops && nodes > 0) {
      throw new IllegalArgumentException("role " + role.name() + " spawns tasks, which may outlive their job: jobs without"
          + " end would need unboundedly many job frames; give it a number of jobs");
    }
    this.frames = nodes == 0 ? 1 : jobs;
    List<List<Step>> bodies = new ArrayList<>();
    bodies.add(role.body());
    tree.nodes().forEach(n -> bodies.add(design.task(n.task()).orElseThrow().body()));
    List<String> resident = design.buffers().stream().map(ResidentBuffer::name).toList();
    RoleResources used = RoleResources.of(design, role, tree);
    jobBuffers = used.jobBuffers();
    jobAllocs = used.jobAllocs();
    keptBuffers = used.keptBuffers();
    keptAllocs = used.keptAllocs();
    events = used.events();
    tasks = used.tasks();
    jobMissing = used.jobMissing().stream().mapToLong(Long::longValue).toArray();
    keptMissing = used.keptMissing().stream().mapToLong(Long::longValue).toArray();
    anyMissing = java.util.stream.LongStream.concat(java.util.Arrays.stream(jobMissing), java.util.Arrays.stream(keptMissing))
        .anyMatch(v -> v != 0);
    Code.Names names = new Code.Names() {
      @Override
      public int mutex(String name) {
        return design.mutexIndex(name);
      }

      @Override
      public int semaphore(String name) {
        return design.semaphoreIndex(name);
      }

      @Override
      public int buffer(String name, boolean k) {
        return (k ? keptBuffers : jobBuffers).indexOf(name);
      }

      @Override
      public boolean isKept(String name) {
        return keptBuffers.contains(name);
      }

      @Override
      public boolean isResident(String name) {
        return resident.contains(name);
      }

      @Override
      public long allocValue(Alloc a) {
        List<List<Alloc>> allocs = a.keep() ? keptAllocs : jobAllocs;
        return allocs.get(buffer(a.buffer(), a.keep())).indexOf(a.header()) + 1;
      }

      @Override
      public int event(String name) {
        return events.indexOf(name);
      }

      @Override
      public int task(String name) {
        return tasks.indexOf(name);
      }

      @Override
      public int interval(String name) {
        return intervalIds.get(name);
      }
    };
    main = new Code(role.body(), names);
    nodeCode = new Code[nodes];
    for (int n = 0; n < nodes; n++) {
      nodeCode[n] = new Code(bodies.get(n + 1), names);
    }
    childAt = new int[nodes + 1][];
    for (int p = -1; p < nodes; p++) {
      Code c = p < 0 ? main : nodeCode[p];
      childAt[p + 1] = new int[c.length];
      for (int pc = 0; pc < c.length; pc++) {
        childAt[p + 1][pc] = c.op[pc] == Code.OP_SPAWN ? tree.child(p, pc) : -1;
      }
    }
    nodeTask = new int[nodes];
    taskNodes = new int[tasks.size()][];
    for (int t = 0; t < tasks.size(); t++) {
      String name = tasks.get(t);
      taskNodes[t] = tree.nodes().stream().filter(n -> n.task().equals(name)).mapToInt(SpawnTree.Node::id).toArray();
      for (int n : taskNodes[t]) {
        nodeTask[n] = t;
      }
    }

    Field.Allocator fields = new Field.Allocator();
    slots = new Slot[1 + frames * nodes];
    Field mainInside = fields.add(1);
    Field mainPc = fields.add(Field.bitsFor(main.length - 1));
    job = fields.add(loops ? 0 : Field.bitsFor(jobs));
    slots[0] = new Slot(main, -1, -1, mainInside, mainPc, Field.NONE, fields.add(cacheBits), fields.add(cacheBits),
        mutexFields(design, main, fields), permitFields(design, main, fields));
    kept = new Field[keptBuffers.size()];
    for (int k = 0; k < kept.length; k++) {
      kept[k] = fields.add(Field.bitsFor(keptAllocs.get(k).size() + (keptMissing[k] != 0 ? 1 : 0)));
    }
    frameBuffer = new Field[frames][jobBuffers.size()];
    frameEvent = new Field[frames][events.size()];
    frameLast = new Field[frames][tasks.size()];
    for (int f = 0; f < frames; f++) {
      for (int b = 0; b < jobBuffers.size(); b++) {
        frameBuffer[f][b] = fields.add(Field.bitsFor(jobAllocs.get(b).size() + (jobMissing[b] != 0 ? 1 : 0)));
      }
      for (int e = 0; e < events.size(); e++) {
        frameEvent[f][e] = fields.add(1);
      }
      for (int t = 0; t < tasks.size(); t++) {
        frameLast[f][t] = fields.add(Field.bitsFor(taskNodes[t].length));
      }
      for (int n = 0; n < nodes; n++) {
        Code c = nodeCode[n];
        slots[1 + f * nodes + n] = new Slot(c, f, n, fields.add(1), fields.add(Field.bitsFor(c.length - 1)),
            fields.add(2), fields.add(cacheBits), fields.add(cacheBits), mutexFields(design, c, fields),
            permitFields(design, c, fields));
      }
    }
    width = fields.width();
    wordBits = fields.usedBits();
    frameBufferBits = new long[frames][width];
    frameClearBits = new long[frames][width];
    for (int f = 0; f < frames; f++) {
      for (Field b : frameBuffer[f]) {
        frameBufferBits[f][b.word()] |= b.mask() << b.shift();
      }
      List<Field> cleared = new ArrayList<>(List.of(frameEvent[f]));
      cleared.addAll(List.of(frameLast[f]));
      for (int n = 0; n < nodes; n++) {
        cleared.add(slots[1 + f * nodes + n].status);
        cleared.add(slots[1 + f * nodes + n].pc);
      }
      for (Field c : cleared) {
        frameClearBits[f][c.word()] |= c.mask() << c.shift();
      }
    }
    touchedTasks = new BitSet[nodes + 1];
    for (int n = -1; n < nodes; n++) {
      touchedTasks[n + 1] = touched(n);
    }
    sharedUse = new boolean[slots.length][];
    for (int p = 0; p < slots.length; p++) {
      Set<Long> others = new HashSet<>();
      for (int q = 0; q < slots.length; q++) {
        if (q != p) {
          others.addAll(written(slots[q].code));
        }
      }
      Code c = slots[p].code;
      sharedUse[p] = new boolean[c.length];
      for (int pc = 0; pc < c.length; pc++) {
        int[] u = c.uses[pc];
        for (int i = 0; u != null && i < u.length; i += 2) {
          sharedUse[p][pc] |= u[i] != Code.RESIDENT && others.contains(bufferKey(u[i], u[i + 1]));
        }
      }
    }
  }

  /** The tasks node n's thread (-1: the role thread) spawns or joins, itself or through the threads it spawns. */
  private BitSet touched(int n) {
    Code c = n < 0 ? main : nodeCode[n];
    BitSet out = new BitSet();
    for (int pc = 0; pc < c.length; pc++) {
      if (c.op[pc] == Code.OP_JOIN && c.arg[pc] >= 0) {
        out.set(c.arg[pc]);
      } else if (c.op[pc] == Code.OP_SPAWN) {
        int child = childAt[n + 1][pc];
        out.set(nodeTask[child]);
        out.or(touched(child));
      }
    }
    return out;
  }

  /** The buffers (as {@link #bufferKey}) that body c allocates or frees. */
  private static Set<Long> written(Code c) {
    Set<Long> out = new HashSet<>();
    for (int pc = 0; pc < c.length; pc++) {
      if (c.op[pc] == Code.OP_ALLOC || c.op[pc] == Code.OP_FREE) {
        out.add(bufferKey(c.ref[pc], c.arg[pc]));
      }
    }
    return out;
  }

  private static long bufferKey(int kind, int index) {
    return (long) kind << 32 | index;
  }

  private static Field[] mutexFields(Design design, Code code, Field.Allocator fields) {
    Field[] out = new Field[design.mutexes().size()];
    for (int m = 0; m < out.length; m++) {
      boolean locks = false;
      for (Step s : code.steps) {
        locks |= s instanceof Lock l && l.mutex().equals(design.mutexes().get(m));
      }
      out[m] = locks ? fields.add(1) : Field.NONE;
    }
    return out;
  }

  private static Field[] permitFields(Design design, Code code, Field.Allocator fields) {
    Field[] out = new Field[design.semaphores().size()];
    for (int i = 0; i < out.length; i++) {
      boolean acquires = false;
      for (Step s : code.steps) {
        acquires |= s instanceof Acquire a && a.semaphore().equals(design.semaphores().get(i).name());
      }
      out[i] = acquires ? fields.add(Field.bitsFor(design.semaphores().get(i).permits())) : Field.NONE;
    }
    return out;
  }

  /** The frame of the role thread's current job. */
  int mainFrame(long[] s, int base) {
    return frames == 1 ? 0 : (int) job.get(s, base);
  }

  /** Whether any task thread of frame f is running. */
  boolean tasksRunning(long[] s, int base, int f) {
    for (int n = 0; n < nodes; n++) {
      if (slots[1 + f * nodes + n].status.get(s, base) == RUNNING) {
        return true;
      }
    }
    return false;
  }
}
