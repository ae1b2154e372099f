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
 * like), in an order drawn from the seed, until none can. A thread that begins an interval asks for its resource: a
 * kernel for the GPU ({@link Machine#gpuConcurrent()} at once, first come first served), a {@code cpu} step for a
 * host core. It holds the resource for the interval's time ({@link StepTimes}; a kernel that starts beside another
 * one takes {@link Machine#gpuSlowdown()} times as long), then takes the interval's end step. Then time moves on to the
 * next end. A violation or a deadlock stops the run where it happens.
 */
public final class Simulator {
  private static final int GPU = 0;
  private static final int CPU = 1;

  private final Model model;
  private final Machine machine;
  private final StepTimes times;
  private final SplittableRandom random;
  private final long seed;

  private long[] s;
  private double now;
  /** Per thread: inside an interval (queued for its resource or running), so it takes no other step. */
  private final boolean[] busy;
  private final PriorityQueue<End> ends = new PriorityQueue<>();
  private long order;
  private final int[] running = new int[2];
  private final List<Deque<Waiting>> queues = List.of(new ArrayDeque<>(), new ArrayDeque<>());
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

  private record End(double time, long order, int thread, int resource) implements Comparable<End> {
    @Override
    public int compareTo(End o) {
      return time != o.time ? Double.compare(time, o.time) : Long.compare(order, o.order);
    }
  }

  private record Waiting(int thread, double seconds) {}

  private Simulator(Design design, Machine machine, StepTimes times, long seed) {
    this.model = new Model(design);
    this.machine = machine;
    this.times = times;
    this.seed = seed;
    this.random = new SplittableRandom(seed);
    int n = model.threads();
    busy = new boolean[n];
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
    return new Simulator(design, machine, times, seed).run();
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
      End e = ends.poll();
      if (e == null) {
        if (model.allFinished(s)) {
          return result(Optional.empty());
        }
        return result(Optional.of(new SimRun.Stop(ViolationKind.DEADLOCK, now, firstWaiting(),
            model.explainDeadlock(s))));
      }
      now = e.time();
      int code = model.step(s, e.thread(), out);
      if (code != Model.MOVED) {
        throw new IllegalStateException("an interval's end did not move: " + model.threadName(e.thread()) + " code " + code);
      }
      advance(e.thread(), out);
      busy[e.thread()] = false;
      release(e.resource());
    }
  }

  /** Every step that takes no time, at the current instant, until no thread can take one; a violation stops. */
  private Optional<SimRun.Stop> instantSteps(long[] out) {
    int n = model.threads();
    int[] threads = new int[n];
    boolean moved = true;
    while (moved) {
      moved = false;
      for (int i = 0; i < n; i++) {
        threads[i] = i;
      }
      for (int i = n - 1; i > 0; i--) { // a seeded shuffle: which of the threads ready at once goes first
        int j = random.nextInt(i + 1);
        int x = threads[i];
        threads[i] = threads[j];
        threads[j] = x;
      }
      for (int t : threads) {
        if (busy[t]) {
          continue;
        }
        Optional<Step> next = model.nextStep(s, t);
        if (next.isEmpty()) {
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
          request(step instanceof Kernel ? GPU : CPU, new Waiting(t, d));
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
      int done = model.view(s, t).job();
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

  private int capacity(int resource) {
    return resource == GPU ? machine.gpuConcurrent() : machine.cores();
  }

  private void request(int resource, Waiting w) {
    if (running[resource] < capacity(resource)) {
      start(resource, w);
    } else {
      queues.get(resource).add(w);
    }
  }

  private void start(int resource, Waiting w) {
    double d = w.seconds();
    if (resource == GPU) {
      if (running[GPU] == 0) {
        gpuBusySince = now;
      } else {
        d *= machine.gpuSlowdown();
      }
    }
    running[resource]++;
    ends.add(new End(now + d, order++, w.thread(), resource));
  }

  private void release(int resource) {
    running[resource]--;
    if (resource == GPU && running[GPU] == 0) {
      gpuBusy += now - gpuBusySince;
    }
    Waiting next = queues.get(resource).poll();
    if (next != null) {
      start(resource, next);
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
    if (running[GPU] > 0) {
      gpuBusy += now - gpuBusySince;
    }
    return new SimRun(seed, now, jobs, jobSeconds, gpuBusy, holds, waits, peakUsed, peakLive, stop);
  }
}
