package dev.interlock.impl.pipeline;

import dev.interlock.impl.device.Device;
import dev.interlock.impl.device.DeviceBuffer;
import dev.interlock.impl.device.KernelRun;
import dev.interlock.impl.engine.Job;
import dev.interlock.impl.engine.LeakException;
import dev.interlock.impl.engine.Pipeline;
import dev.interlock.impl.engine.Probe;
import dev.interlock.impl.engine.Resources;
import dev.interlock.impl.engine.Worker;
import dev.interlock.model.design.Role;
import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Wait;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Executes a role's body from a design with real mutexes, semaphores and device calls.
 *
 * <p>Buffer handles are per worker thread, as the design language says. With
 * {@code honorDurations}, {@code cpu} and {@code kernel} steps spend their {@code for} duration
 * (sleeping stands in for the work, so timing runs look like the real thing).
 */
public final class InterpretedPipeline implements Pipeline {
  private final Role role;
  private final boolean honorDurations;
  private final Workload workload;
  private final Map<String, Map<String, DeviceBuffer>> handles = new ConcurrentHashMap<>();

  public InterpretedPipeline(Role role, boolean honorDurations, Workload workload) {
    this.role = role;
    this.honorDurations = honorDurations;
    this.workload = workload;
    workload.bind(role);
  }

  public InterpretedPipeline(Role role, boolean honorDurations) {
    this(role, honorDurations, Workload.NONE);
  }

  public InterpretedPipeline(Role role) {
    this(role, false);
  }

  @Override
  public Object runJob(Worker w, Job job) {
    Map<String, DeviceBuffer> buffers = handles.computeIfAbsent(w.name(), k -> new HashMap<>());
    List<DeviceBuffer> live = w.device().liveBuffers(w.name());
    buffers.values().removeIf(b -> !live.contains(b));
    Workload.JobState state = workload.start(job);
    Executor x = new Executor(w, buffers, state);
    for (Step s : role.body()) {
      s.accept(x);
    }
    return state.result();
  }

  /** One job's execution of the steps on one worker. */
  private final class Executor implements Step.Visitor<Void> {
    private final Worker w;
    private final Probe probe;
    private final Resources res;
    private final Device device;
    private final Map<String, DeviceBuffer> buffers;
    private final Workload.JobState state;

    Executor(Worker w, Map<String, DeviceBuffer> buffers, Workload.JobState state) {
      this.state = state;
      this.w = w;
      this.probe = w.probe();
      this.res = w.resources();
      this.device = w.device();
      this.buffers = buffers;
    }

    @Override
    public Void lock(Lock s) {
      probe.step(s, () -> res.mutex(s.mutex()).lock());
      return null;
    }

    @Override
    public Void unlock(Unlock s) {
      probe.step(s, () -> res.mutex(s.mutex()).unlock());
      return null;
    }

    @Override
    public Void acquire(Acquire s) {
      probe.step(s, () -> res.semaphore(s.semaphore()).acquire(s.permits()));
      return null;
    }

    @Override
    public Void release(Release s) {
      probe.step(s, () -> res.semaphore(s.semaphore()).release(s.permits()));
      return null;
    }

    @Override
    public Void alloc(Alloc s) {
      probe.step(s, () -> {
        if (buffers.containsKey(s.buffer())) {
          throw new LeakException(w.name() + " " + s.text() + ": " + s.buffer() + " is still live, its earlier allocation leaks");
        }
        buffers.put(s.buffer(), device.allocate(w.name(), s.buffer(), workload.bytes(s.buffer(), s.bytes()), s.async()));
      });
      return null;
    }

    @Override
    public Void free(Free s) {
      probe.step(s, () -> {
        device.free(buffers.get(s.buffer()));
        buffers.remove(s.buffer());
      });
      return null;
    }

    @Override
    public Void trim(Trim s) {
      probe.step(s, device::trim);
      return null;
    }

    @Override
    public Void sync(Sync s) {
      probe.step(s, res::synchronizeDevice);
      return null;
    }

    @Override
    public Void kernel(Kernel s) {
      List<DeviceBuffer> uses = s.uses().stream().map(buffers::get).toList();
      KernelRun run = probe.begin(s, () -> {
        if (workload == Workload.NONE) {
          return device.launch(w.name(), s.name(), uses, () -> spend(s));
        }
        return workload.kernel(s.name(), w.name(), device, uses, buffers, state);
      });
      try {
        probe.end(s, run::await);
      } finally {
        if (probe.silent()) {
          run.await(); // the run was aborted before the end step: do not leave the kernel running on the device
        }
      }
      return null;
    }

    @Override
    public Void cpu(Cpu s) {
      probe.interval(s, () -> {
        spend(s);
        workload.cpu(s.name(), state);
      });
      return null;
    }

    @Override
    public Void syncStream(SyncStream s) {
      throw new UnsupportedOperationException("not yet interpreted: " + s.text());
    }

    @Override
    public Void ifFree(IfFree s) {
      throw new UnsupportedOperationException("not yet interpreted: " + s.text());
    }

    @Override
    public Void spawn(Spawn s) {
      throw new UnsupportedOperationException("not yet interpreted: " + s.text());
    }

    @Override
    public Void join(Join s) {
      throw new UnsupportedOperationException("not yet interpreted: " + s.text());
    }

    @Override
    public Void signal(Signal s) {
      throw new UnsupportedOperationException("not yet interpreted: " + s.text());
    }

    @Override
    public Void await(Wait s) {
      throw new UnsupportedOperationException("not yet interpreted: " + s.text());
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
