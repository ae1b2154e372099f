package dev.interlock.impl.pipeline;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.api.Worker;
import dev.interlock.impl.engine.Crew;
import dev.interlock.impl.engine.EngineWorker;
import dev.interlock.impl.engine.JobScope;
import dev.interlock.impl.engine.RecordingProbe;
import dev.interlock.impl.engine.RunResources;
import dev.interlock.impl.engine.ScopedPipeline;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.SpawnTree;
import dev.interlock.model.design.Task;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Choose;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Interval;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Executes a role's body from a design with real mutexes, semaphores, device calls and threads.
 *
 * <p>Buffer names are per job, as the design language says: the job's buffers live in its
 * {@link JobScope}, which its tasks share; kept buffers ({@code alloc B SIZE keep}) belong to the
 * role thread's {@link Crew}, device buffers ({@code buffer NAME SIZE}) to the run's
 * {@link RunResources}. {@code spawn T} starts task T's body on a thread of its own, named as the model
 * names it ({@link SpawnTree}). With {@code honorDurations}, {@code cpu} and {@code kernel} steps
 * spend their {@code for} duration (sleeping stands in for the work, so timing runs look like the
 * real thing).
 *
 * <p>An alloc with {@code on oom} catches the device's out-of-memory: its handler runs next, or ({@code ignore}) the
 * job goes on with the buffer missing, which kernels run without ({@link RecordingProbe#launchesWithout}) and whose
 * free does nothing. Which steps nest where is the model's {@link Steps#nested}; the interpreter walks it.
 */
public final class InterpretedPipeline implements ScopedPipeline {
  private final Role role;
  private final boolean honorDurations;
  private final Workload workload;
  /** The plan of a role that spawns nothing: its own kept names are all it needs, known from the role alone. */
  private final Plan alone;
  /** What a role that spawns needs of the run's design (its tasks), made on the run's first job. */
  private volatile Plan plan;

  public InterpretedPipeline(Role role, boolean honorDurations, Workload workload) {
    this.role = role;
    this.honorDurations = honorDurations;
    this.workload = workload;
    workload.bind(role);
    boolean spawns = Steps.flatten(role.body()).stream().anyMatch(Spawn.class::isInstance);
    this.alone = spawns ? null : new Plan(null, null, keptNames(role.body()), Map.of());
  }

  public InterpretedPipeline(Role role, boolean honorDurations) {
    this(role, honorDurations, Workload.NONE);
  }

  public InterpretedPipeline(Role role) {
    this(role, false);
  }

  /**
   * The role's spawn tree, the names allocated with {@code keep} (by the role or its tasks), and the tasks by name,
   * for one design; for a role that spawns nothing only the kept names.
   */
  private record Plan(Design design, SpawnTree tree, Set<String> kept, Map<String, Task> tasks) {
    static Plan of(Design design, Role role) {
      List<Step> all = new java.util.ArrayList<>(role.body());
      Map<String, Task> tasks = new HashMap<>();
      for (Task t : design.tasks()) {
        tasks.put(t.name(), t);
        all.addAll(t.body());
      }
      return new Plan(design, SpawnTree.of(design, role), keptNames(all), Map.copyOf(tasks));
    }
  }

  private static Set<String> keptNames(List<Step> body) {
    Set<String> kept = new HashSet<>();
    Steps.forEach(body, s -> {
      if (s instanceof Alloc a && a.keep()) {
        kept.add(a.buffer());
      }
    });
    return Set.copyOf(kept);
  }

  /** The plan for a run of {@code design}; computed once per run for a role that spawns, never read otherwise. */
  private Plan plan(Design design) {
    if (alone != null) {
      return alone;
    }
    Plan p = plan;
    if (p == null || p.design() != design) {
      p = Plan.of(design, role);
      plan = p;
    }
    return p;
  }

  @Override
  public Object runJob(Worker worker, Job job) {
    EngineWorker w = EngineWorker.of(worker);
    Workload.JobState state = workload.start(job);
    new Executor(w, state, plan(w.resources().design()), -1).run(role.body(), 0, true);
    return state.result();
  }

  /** One thread's execution of its body in one job: the role thread's (node -1), or a task's. */
  private final class Executor implements Step.Visitor<Void> {
    private final EngineWorker w;
    private final RecordingProbe probe;
    private final RunResources res;
    private final Device device;
    private final JobScope job;
    private final Crew crew;
    private final Workload.JobState state;
    private final Plan plan;
    private final int node;
    /** The flattened index of the step being run in this thread's body (a spawn site). */
    private int site;
    /** Whether the step being run is the last of this thread's body. */
    private boolean last;

    Executor(EngineWorker w, Workload.JobState state, Plan plan, int node) {
      this.w = w;
      this.probe = w.probe();
      this.res = w.resources();
      this.device = w.device();
      this.job = w.job();
      this.crew = w.crew();
      this.state = state;
      this.plan = plan;
      this.node = node;
    }

    /** Runs {@code steps}, the first at flattened index {@code first}; {@code tail}: nothing follows them in the body. */
    void run(List<Step> steps, int first, boolean tail) {
      int at = first;
      for (int i = 0; i < steps.size(); i++) {
        Step s = steps.get(i);
        site = at;
        last = tail && i == steps.size() - 1;
        s.accept(this);
        at += Steps.flatten(List.of(s)).size(); // the step and the steps nested in it (if branches, an on oom handler)
      }
    }

    /** Marks the next transition as the body's last when the step being run is. */
    private void endsBodyIfLast() {
      if (last) {
        probe.endsBody();
      }
    }

    /** The live buffer a step names: a device buffer, a kept buffer of the crew, or the job's. */
    private DeviceBuffer buffer(String name) {
      DeviceBuffer b = res.deviceBuffer(name);
      if (b != null) {
        return b;
      }
      return plan.kept().contains(name) ? crew.kept(name) : job.buffer(name);
    }

    @Override
    public Void lock(Lock s) {
      endsBodyIfLast();
      probe.step(s, () -> res.mutex(s.mutex()).lock());
      return null;
    }

    @Override
    public Void unlock(Unlock s) {
      endsBodyIfLast();
      probe.step(s, () -> res.mutex(s.mutex()).unlock());
      return null;
    }

    @Override
    public Void acquire(Acquire s) {
      endsBodyIfLast();
      probe.step(s, () -> res.semaphore(s.semaphore()).acquire(s.permits()));
      return null;
    }

    @Override
    public Void release(Release s) {
      endsBodyIfLast();
      probe.step(s, () -> res.semaphore(s.semaphore()).release(s.permits()));
      return null;
    }

    /**
     * The step {@code alloc}: without {@code on oom}, its failure fails the job. With it, a failure moves on (the
     * probe records phase oom): to the handler's steps, or, ignored, to the next step with the buffer marked missing.
     */
    @Override
    public Void alloc(Alloc s) {
      String name = s.buffer();
      long bytes = workload.bytes(name, s.bytes());
      Runnable allocate = () -> {
        if (s.keep()) {
          crew.keep(name, () -> device.allocate(w.name(), name, bytes, s.async()));
        } else {
          job.allocate(name, () -> device.allocate(w.name(), name, bytes, s.async()),
              w.name() + " " + s.text() + ": " + name + " is still live, its earlier allocation leaks");
        }
      };
      if (!s.fallible()) {
        endsBodyIfLast();
        probe.step(s, allocate);
        return null;
      }
      int at = site;
      boolean tail = last;
      boolean allocated = probe.alloc(s, tail, allocate, () -> {
        if (s.keep()) {
          crew.markMissing(name);
        } else {
          job.markMissing(name);
        }
      });
      if (!allocated) {
        run(s.onOom().steps(), at + 1, tail); // the handler (none for ignore), then the step after the block
      } else if (s.onOom() instanceof OnOom.Handle h) {
        run(h.success(), at + 1 + Steps.flatten(h.steps()).size(), tail); // its else: the success path
      }
      return null;
    }

    /** Whether the buffer a kernel names is missing: its allocation failed and was ignored. */
    private boolean missing(String name) {
      if (res.deviceBuffer(name) != null) {
        return false;
      }
      return plan.kept().contains(name) ? crew.isMissing(name) : job.isMissing(name);
    }

    @Override
    public Void free(Free s) {
      endsBodyIfLast();
      probe.step(s, () -> {
        if (plan.kept().contains(s.buffer())) {
          crew.free(s.buffer(), w.name());
        } else {
          job.free(s.buffer(), w.name());
        }
      });
      return null;
    }

    @Override
    public Void trim(Trim s) {
      endsBodyIfLast();
      probe.step(s, device::trim);
      return null;
    }

    @Override
    public Void sync(Sync s) {
      endsBodyIfLast();
      probe.step(s, res::synchronizeDevice);
      return null;
    }

    @Override
    public Void syncStream(SyncStream s) {
      endsBodyIfLast();
      probe.step(s, () -> device.synchronizeStream(w.name()));
      return null;
    }

    @Override
    public Void kernel(Kernel s) {
      KernelRun run = probe.begin(s, () -> {
        // resolved at the launch: a task of the job may have freed one of them since the step before; a missing
        // buffer (its allocation failed and was ignored) is left out: the kernel runs without it
        List<String> without = new ArrayList<>();
        List<DeviceBuffer> uses = new ArrayList<>();
        for (String b : s.uses()) {
          if (missing(b)) {
            without.add(b);
          } else {
            uses.add(buffer(b));
          }
        }
        probe.launchesWithout(without);
        if (workload == Workload.NONE) {
          return device.launch(w.name(), s.name(), uses, () -> spend(s));
        }
        return workload.kernel(s.name(), w.name(), device, uses, buffers(), state);
      });
      try {
        endsBodyIfLast();
        probe.end(s, run::await);
      } finally {
        if (probe.silent()) {
          run.await(); // the run was aborted before the end step: do not leave the kernel running on the device
        }
      }
      return null;
    }

    /** Every buffer a kernel of this thread may use now, by name: device, kept and the job's. */
    private Map<String, DeviceBuffer> buffers() {
      Map<String, DeviceBuffer> all = new HashMap<>(job.buffers());
      all.putAll(crew.keptBuffers());
      all.putAll(res.deviceBuffers());
      return all;
    }

    @Override
    public Void cpu(Cpu s) {
      probe.begin(s, () -> null);
      spend(s);
      workload.cpu(s.name(), state);
      endsBodyIfLast();
      probe.end(s, () -> {});
      return null;
    }

    @Override
    public Void ifFree(IfFree s) {
      int at = site;
      boolean tail = last;
      boolean then = probe.ifFree(s, tail);
      if (then) {
        run(s.then(), at + 1, tail);
      } else {
        run(s.otherwise(), at + 1 + Steps.flatten(s.then()).size(), tail);
      }
      return null;
    }

    @Override
    public Void choose(Choose s) {
      int at = site;
      boolean tail = last;
      if (probe.choose(s, tail)) {
        run(s.first(), at + 1, tail);
      } else {
        run(s.second(), at + 1 + Steps.flatten(s.first()).size(), tail);
      }
      return null;
    }

    @Override
    public Void spawn(Spawn s) {
      endsBodyIfLast();
      int child = plan.tree().child(node, site);
      String thread = plan.tree().threadName(job.roleThread(), job.number(), child);
      Task task = plan.tasks().get(s.task());
      probe.step(s, () -> job.spawn(thread, s.task(),
          tw -> new Executor(tw, state, plan, child).run(task.body(), 0, true)));
      return null;
    }

    @Override
    public Void join(Join s) {
      endsBodyIfLast();
      probe.step(s, () -> job.join(s.task()));
      return null;
    }

    @Override
    public Void signal(Signal s) {
      endsBodyIfLast();
      probe.step(s, () -> job.signal(s.event()));
      return null;
    }

    @Override
    public Void await(Wait s) {
      endsBodyIfLast();
      probe.step(s, () -> job.await(s.event()));
      return null;
    }

    private void spend(Interval i) {
      if (honorDurations && i.duration().isPresent()) {
        Duration d = i.duration().get();
        try {
          Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
