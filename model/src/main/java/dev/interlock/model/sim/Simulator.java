package dev.interlock.model.sim;

import dev.interlock.model.design.Design;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ThreadView;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.Choose;
import dev.interlock.model.step.Interval;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Unlock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * One timed run of a design, as a discrete-event simulation: the model says which steps may run and what they do; the
 * simulator gives the intervals their times and the machine's resources.
 *
 * <p>At each instant every thread that can take a step without time takes it (locks, allocations, signals and the
 * like), in an order drawn from the seed, until none can. A thread that begins an interval asks for its resource:
 * <ul>
 *   <li>a kernel asks for the GPU, which runs {@link Machine#gpuConcurrent()} kernels at once, first come first
 *       served; the kernel holds it for its time ({@link StepTimes}), or {@link Machine#gpuSlowdown()} times as long
 *       when it starts beside another one;
 *   <li>a kernel that {@link StepTimes#isCopy} names a copy asks for the copy engine instead: one copy at a time,
 *       first come first served, beside the kernels;
 *   <li>a {@code cpu} step runs on the host's cores at once, shared: each step keeps {@link StepTimes#cores} cores busy
 *       when it runs alone, and while the running steps ask for more than {@link Machine#cores()} in all, each goes at
 *       cores / asked of its speed alone (processor sharing, as an operating system's scheduler gives every runnable
 *       thread its turn).
 * </ul>
 * When its time is done, the thread takes the interval's end step, and time moves on to the next end. A violation or
 * a deadlock stops the run where it happens.
 */
public final class Simulator {
  private final Model model;
  private final Machine machine;
  private final StepTimes times;
  private final SplittableRandom random;
  private final long seed;

  private long[] s;
  private double now;
  /** Per thread: inside an interval (queued for its resource or running), so it takes no other step. */
  private final boolean[] busy;
  /** Per thread: a role thread that has run all its jobs. */
  private final boolean[] over;
  /** The kernels running on the GPU, by when they end. */
  private final PriorityQueue<End> ends = new PriorityQueue<>();
  private long order;
  private int gpuRunning;
  private final Deque<Waiting> gpuQueue = new ArrayDeque<>();
  /** Whether the copy engine is copying, and the copies waiting for it, first come first served. */
  private boolean copying;
  private final Deque<Waiting> copyQueue = new ArrayDeque<>();
  /** The cpu steps running on the host's cores, in the order they began. */
  private final List<HostStep> host = new ArrayList<>();
  private double gpuBusy;
  private double gpuBusySince;
  private int jobs;
  private final List<Double> jobSeconds = new ArrayList<>();
  private final double[] jobStart;
  private final int[] jobsDone;
  private final double[] waitingSince;
  /** Per thread and mutex (Design#mutexIndex): when the thread took it. */
  private final double[][] holdingSince;
  private final Map<String, List<Double>> holds = new LinkedHashMap<>();
  private final Map<String, List<Double>> waits = new LinkedHashMap<>();
  private long peakUsed;
  private long peakLive;

  private record End(double time, long order, int thread, boolean copy) implements Comparable<End> {
    @Override
    public int compareTo(End o) {
      return time != o.time ? Double.compare(time, o.time) : Long.compare(order, o.order);
    }
  }

  private record Waiting(int thread, double seconds) {}

  /** A running cpu step: its thread, the cores it asks for, and its seconds still to run at full speed. */
  private static final class HostStep {
    final int thread;
    final double cores;
    double left;

    HostStep(int thread, double cores, double left) {
      this.thread = thread;
      this.cores = cores;
      this.left = left;
    }
  }

  private Simulator(Model model, Machine machine, StepTimes times, long seed) {
    Design design = model.design();
    this.model = model;
    this.machine = machine;
    this.times = times;
    this.seed = seed;
    this.random = new SplittableRandom(seed);
    int n = model.threads();
    busy = new boolean[n];
    over = new boolean[n];
    jobStart = new double[n];
    jobsDone = new int[n];
    waitingSince = new double[n];
    holdingSince = new double[n][design.mutexes().size()];
    java.util.Arrays.fill(waitingSince, -1);
    design.mutexes().forEach(m -> {
      holds.put(m, new ArrayList<>());
      waits.put(m, new ArrayList<>());
    });
  }

  /** Runs {@code design} (its thread and job counts as they are) on {@code machine} with {@code times}. */
  public static SimRun run(Design design, Machine machine, StepTimes times, long seed) {
    return run(new Model(design), machine, times, seed);
  }

  /** Runs {@code model}'s design: a model serves any number of runs, at once too (it keeps no state of its own). */
  public static SimRun run(Model model, Machine machine, StepTimes times, long seed) {
    return new Simulator(model, machine, times, seed).run();
  }

  private SimRun run() {
    s = model.initial();
    observe();
    long[] out = new long[model.width()];
    while (true) {
      Optional<SimRun.Stop> stop = instantSteps(out);
      if (stop.isPresent()) {
        return result(stop);
      }
      End kernel = ends.peek();
      HostStep first = firstHostEnd();
      if (kernel == null && first == null) {
        if (model.allFinished(s)) {
          return result(Optional.empty());
        }
        return result(Optional.of(new SimRun.Stop(ViolationKind.DEADLOCK, now, firstWaiting(),
            model.explainDeadlock(s))));
      }
      double hostEnd = first == null ? Double.POSITIVE_INFINITY : now + first.left / hostSpeed();
      int thread;
      if (kernel != null && kernel.time() <= hostEnd) {
        ends.poll();
        runHost(kernel.time() - now);
        now = kernel.time();
        thread = kernel.thread();
        if (kernel.copy()) {
          releaseCopy();
        } else {
          releaseGpu();
        }
      } else {
        runHost(hostEnd - now);
        now = hostEnd;
        host.remove(first);
        thread = first.thread;
      }
      int code = model.step(s, thread, out);
      if (code != Model.MOVED) {
        throw new IllegalStateException("an interval's end did not move: " + model.threadName(thread) + " code " + code);
      }
      advance(thread, out);
      busy[thread] = false;
    }
  }

  /** The running cpu step with the least time left (the first begun among equals), or null. */
  private HostStep firstHostEnd() {
    HostStep first = null;
    for (HostStep h : host) {
      if (first == null || h.left < first.left) {
        first = h;
      }
    }
    return first;
  }

  /** How fast each running cpu step goes, as a fraction of its speed alone: 1 while the cores suffice. */
  private double hostSpeed() {
    double asked = 0;
    for (HostStep h : host) {
      asked += h.cores;
    }
    return asked <= machine.cores() ? 1.0 : machine.cores() / asked;
  }

  /** Runs the cpu steps for {@code seconds} of simulated time at the current speed. */
  private void runHost(double seconds) {
    double done = seconds * hostSpeed();
    for (HostStep h : host) {
      h.left = Math.max(0, h.left - done);
    }
  }

  /** Every step that takes no time, at the current instant, until no thread can take one; a violation stops. */
  private Optional<SimRun.Stop> instantSteps(long[] out) {
    int n = model.threads();
    int[] threads = new int[n];
    for (int i = 0; i < n; i++) {
      threads[i] = i;
    }
    for (int i = n - 1; i > 0; i--) { // a seeded shuffle: which of the threads ready at this instant goes first
      int j = random.nextInt(i + 1);
      int x = threads[i];
      threads[i] = threads[j];
      threads[j] = x;
    }
    boolean moved = true;
    while (moved) {
      moved = false;
      for (int t : threads) {
        if (busy[t] || over[t]) {
          continue;
        }
        Optional<Step> next = model.nextStep(s, t);
        if (next.isEmpty()) {
          over[t] = !model.isTaskThread(t); // a role thread at its end stays there; a task thread may be spawned again
          continue;
        }
        Step step = next.get();
        int move = step instanceof Choose && random.nextBoolean() ? t + n : t;
        int code = model.step(s, move, out);
        if (code == Model.FINISHED) {
          continue;
        }
        if (code == Model.BLOCKED) {
          if (step instanceof Lock && waitingSince[t] < 0) {
            waitingSince[t] = now;
          }
          continue;
        }
        ViolationKind k = Model.violation(code);
        if (k != null) {
          return Optional.of(new SimRun.Stop(k, now, model.threadName(t), model.explain(s, move, k)));
        }
        if (step instanceof Lock l) {
          waits.get(l.mutex()).add(waitingSince[t] < 0 ? 0 : now - waitingSince[t]);
          waitingSince[t] = -1;
          holdingSince[t][model.design().mutexIndex(l.mutex())] = now;
        } else if (step instanceof Unlock u) {
          holds.get(u.mutex()).add(now - holdingSince[t][model.design().mutexIndex(u.mutex())]);
        }
        advance(t, out);
        if (step instanceof Interval i) { // its begin: a thread inside an interval is busy and takes no step here
          busy[t] = true;
          double d = times.of(i.name()).map(x -> x.seconds(random)).orElse(0.0);
          if (step instanceof Kernel && times.isCopy(i.name())) {
            requestCopy(new Waiting(t, d));
          } else if (step instanceof Kernel) {
            requestGpu(new Waiting(t, d));
          } else {
            host.add(new HostStep(t, times.cores(i.name()), d));
          }
        }
        moved = true;
      }
    }
    return Optional.empty();
  }

  /** Takes the state thread t's step left in {@code out}, and counts a job when its role thread finished one. */
  private void advance(int t, long[] out) {
    s = out.clone();
    if (!model.isTaskThread(t)) {
      int done = model.job(s, t);
      if (done > jobsDone[t]) {
        jobsDone[t] = done;
        jobs++;
        jobSeconds.add(now - jobStart[t]);
        jobStart[t] = now;
      }
    }
    observe();
  }

  private void observe() {
    peakUsed = Math.max(peakUsed, model.used(s));
    peakLive = Math.max(peakLive, model.live(s));
  }

  private void requestGpu(Waiting w) {
    if (gpuRunning < machine.gpuConcurrent()) {
      startGpu(w);
    } else {
      gpuQueue.add(w);
    }
  }

  private void startGpu(Waiting w) {
    double d = w.seconds();
    if (gpuRunning == 0) {
      gpuBusySince = now;
    } else {
      d *= machine.gpuSlowdown();
    }
    gpuRunning++;
    ends.add(new End(now + d, order++, w.thread(), false));
  }

  private void requestCopy(Waiting w) {
    if (copying) {
      copyQueue.add(w);
    } else {
      copying = true;
      ends.add(new End(now + w.seconds(), order++, w.thread(), true));
    }
  }

  private void releaseCopy() {
    copying = false;
    Waiting next = copyQueue.poll();
    if (next != null) {
      requestCopy(next);
    }
  }

  private void releaseGpu() {
    gpuRunning--;
    if (gpuRunning == 0) {
      gpuBusy += now - gpuBusySince;
    }
    Waiting next = gpuQueue.poll();
    if (next != null) {
      startGpu(next);
    }
  }

  private String firstWaiting() {
    for (int t = 0; t < model.threads(); t++) {
      if (model.nextStep(s, t).isPresent()) {
        return model.threadName(t);
      }
    }
    return "-";
  }

  private SimRun result(Optional<SimRun.Stop> stop) {
    if (gpuRunning > 0) {
      gpuBusy += now - gpuBusySince;
    }
    return new SimRun(seed, now, jobs, jobSeconds, gpuBusy, holds, waits, peakUsed, peakLive, stop);
  }
}
