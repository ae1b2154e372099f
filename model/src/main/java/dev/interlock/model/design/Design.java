package dev.interlock.model.design;

import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Names;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A lock design: device memory and its pool's release threshold, resident device buffers, mutexes,
 * semaphores, roles and the tasks their threads spawn.
 *
 * <p>Every mutex, semaphore and task a step names is declared, and names are unique across
 * mutexes, semaphores, roles and tasks; no task can spawn itself, directly or through other tasks;
 * within a role and the tasks it can spawn, a buffer name is either never kept or always kept at
 * one size; every {@code wait E} has a {@code signal E} in a role or task of a job that runs it.
 * The parser reports violations with positions before this constructor runs.
 */
public record Design(String name, long vram, long poolThreshold, List<ResidentBuffer> buffers, List<String> mutexes,
    List<Semaphore> semaphores, List<Role> roles, List<Task> tasks) {
  /** {@code pool threshold max}: the pool keeps every freed byte until a trim. */
  public static final long THRESHOLD_MAX = Long.MAX_VALUE;

  public Design {
    Names.require("design", name);
    if (vram < 1) {
      throw new IllegalArgumentException("design " + name + " needs positive vram, got " + vram);
    }
    if (poolThreshold < 0) {
      throw new IllegalArgumentException("design " + name + " needs a non-negative pool threshold, got " + poolThreshold);
    }
    buffers = List.copyOf(buffers);
    tasks = List.copyOf(tasks);
    long resident = 0;
    for (ResidentBuffer b : buffers) {
      resident += b.bytes();
    }
    if (resident > vram) {
      throw new IllegalArgumentException("design " + name + ": device buffers of " + Sizes.format(resident)
          + " do not fit in " + Sizes.format(vram) + " vram");
    }
    mutexes = List.copyOf(mutexes);
    semaphores = List.copyOf(semaphores);
    roles = List.copyOf(roles);
    if (roles.isEmpty()) {
      throw new IllegalArgumentException("design " + name + " has no role");
    }
    Set<String> seen = new HashSet<>();
    mutexes.forEach(m -> requireNew(seen, Names.require("mutex", m)));
    semaphores.forEach(s -> requireNew(seen, s.name()));
    roles.forEach(r -> requireNew(seen, r.name()));
    tasks.forEach(t -> requireNew(seen, t.name()));
    Set<String> bufferNames = new HashSet<>();
    buffers.forEach(b -> requireNew(bufferNames, b.name()));
    for (Role r : roles) {
      checkBody("role " + r.name(), r.body(), mutexes, semaphores, tasks, bufferNames);
    }
    for (Task t : tasks) {
      checkBody("task " + t.name(), t.body(), mutexes, semaphores, tasks, bufferNames);
    }
    TaskGraph graph = TaskGraph.of(tasks);
    for (Task t : tasks) {
      List<String> cycle = graph.cycle(t.name());
      if (!cycle.isEmpty()) {
        throw new IllegalArgumentException("task " + t.name() + " can spawn itself: " + String.join(" -> ", cycle));
      }
    }
    for (Role r : roles) {
      requireOneKeep("role " + r.name(), graph.closure(r.body()));
    }
    for (Task t : tasks) {
      requireOneKeep("task " + t.name(), graph.closure(t.body()));
    }
    List<List<Step>> roleBodies = roles.stream().map(Role::body).toList();
    for (Role r : roles) {
      requireSignalled("role " + r.name(), r.body(), graph.signals(r.body()));
    }
    for (Task t : tasks) {
      requireSignalled("task " + t.name(), t.body(), graph.jobSignals(t.name(), roleBodies));
    }
  }

  /** A wait in body names an event that its job can signal: else it could only block forever. */
  private static void requireSignalled(String owner, List<Step> body, Set<String> signalled) {
    Steps.forEach(body, s -> {
      if (s instanceof Wait w && !signalled.contains(w.event())) {
        throw new IllegalArgumentException(owner + ": no thread of its job signals " + w.event() + " in '" + s.text() + "'");
      }
    });
  }

  /** A kept buffer is one buffer of the role thread: every alloc of its name, in the role or its tasks, keeps it at one size. */
  private static void requireOneKeep(String owner, List<Step> closure) {
    TaskGraph.keepConflict(closure).ifPresent(c -> {
      throw new IllegalArgumentException(owner + " and the tasks it can spawn: '" + c.earlier().text() + "' and '"
          + c.later().text() + "' disagree (a buffer name is kept at one size, or never kept)");
    });
  }

  /** This design with the five original parts: threshold 0, no device buffers, no tasks. */
  public Design(String name, long vram, List<String> mutexes, List<Semaphore> semaphores, List<Role> roles) {
    this(name, vram, 0, List.of(), mutexes, semaphores, roles, List.of());
  }

  private static void checkBody(String owner, List<Step> body, List<String> mutexes, List<Semaphore> semaphores,
      List<Task> tasks, Set<String> residentBuffers) {
    Steps.forEach(body, s -> {
      String undeclared = undeclared(s, mutexes, semaphores, tasks, residentBuffers);
      if (undeclared != null) {
        throw new IllegalArgumentException(owner + ": " + undeclared + " in '" + s.text() + "'");
      }
    });
  }

  private static void requireNew(Set<String> seen, String n) {
    if (!seen.add(n)) {
      throw new IllegalArgumentException("duplicate name " + n);
    }
  }

  /** A description of what {@code s} names but the design does not declare (or may not touch), or null. */
  static String undeclared(Step s, List<String> mutexes, List<Semaphore> semaphores, List<Task> tasks,
      Set<String> residentBuffers) {
    String task = s instanceof Spawn sp ? sp.task() : s instanceof Join j ? j.task() : null;
    if (task != null && tasks.stream().noneMatch(t -> t.name().equals(task))) {
      return "undeclared task " + task;
    }
    String buffer = s instanceof Alloc a ? a.buffer() : s instanceof Free f ? f.buffer() : null;
    if (buffer != null && residentBuffers.contains(buffer)) {
      return "device buffer " + buffer + " is allocated once for the whole run";
    }
    String mutex = s instanceof Lock l ? l.mutex() : s instanceof Unlock u ? u.mutex() : null;
    if (mutex != null && !mutexes.contains(mutex)) {
      return "undeclared mutex " + mutex;
    }
    String sem = s instanceof Acquire a ? a.semaphore() : s instanceof Release r ? r.semaphore() : null;
    if (sem != null && !hasSemaphore(semaphores, sem)) {
      return "undeclared semaphore " + sem;
    }
    return null;
  }

  private static boolean hasSemaphore(List<Semaphore> semaphores, String name) {
    return semaphores.stream().anyMatch(s -> s.name().equals(name));
  }

  /** The role called {@code roleName}. */
  /**
   * The events a job running {@code body} can signal: in it and in the tasks of {@code tasks} it can start, the rule
   * a role's {@code wait} is checked by (a wait with no such signal is refused).
   */
  public static Set<String> signalsOf(List<Step> body, List<Task> tasks) {
    return TaskGraph.of(tasks).signals(body);
  }

  public Optional<Role> role(String roleName) {
    return roles.stream().filter(r -> r.name().equals(roleName)).findFirst();
  }

  /** The task called {@code taskName}. */
  public Optional<Task> task(String taskName) {
    return tasks.stream().filter(t -> t.name().equals(taskName)).findFirst();
  }

  /** Every step of every role's body, then of every task's, nested steps included, in textual order. */
  public List<Step> steps() {
    List<Step> out = new ArrayList<>();
    roles.forEach(r -> Steps.forEach(r.body(), out::add));
    tasks.forEach(t -> Steps.forEach(t.body(), out::add));
    return out;
  }

  /** Bytes of all device buffers, live from before any thread runs. */
  public long residentBytes() {
    return buffers.stream().mapToLong(ResidentBuffer::bytes).sum();
  }

  /** The index of a mutex in {@link #mutexes()}, or -1. */
  public int mutexIndex(String mutex) {
    return mutexes.indexOf(mutex);
  }

  /** The index of a semaphore in {@link #semaphores()}, or -1. */
  public int semaphoreIndex(String semaphore) {
    for (int i = 0; i < semaphores.size(); i++) {
      if (semaphores.get(i).name().equals(semaphore)) {
        return i;
      }
    }
    return -1;
  }

  /** Total number of threads over all roles. */
  public int threadCount() {
    return roles.stream().mapToInt(Role::threads).sum();
  }

  public Design withVram(long bytes) {
    return new Design(name, bytes, poolThreshold, buffers, mutexes, semaphores, roles, tasks);
  }

  /** This design with the pool's release threshold at {@code bytes} ({@link #THRESHOLD_MAX}: max). */
  public Design withPoolThreshold(long bytes) {
    return new Design(name, vram, bytes, buffers, mutexes, semaphores, roles, tasks);
  }

  /** This design with {@code roleName} running {@code n} threads. */
  public Design withThreads(String roleName, int n) {
    return mapRole(roleName, r -> r.withThreads(n));
  }

  /** This design with {@code roleName} running its body {@code n} times per thread. */
  public Design withJobs(String roleName, int n) {
    return mapRole(roleName, r -> r.withJobs(n));
  }

  /** This design with semaphore {@code semaphore} starting with {@code n} permits. */
  public Design withPermits(String semaphore, int n) {
    int i = semaphoreIndex(semaphore);
    if (i < 0) {
      throw new IllegalArgumentException("no semaphore " + semaphore + " in design " + name);
    }
    List<Semaphore> copy = new ArrayList<>(semaphores);
    copy.set(i, new Semaphore(semaphore, n));
    return new Design(name, vram, poolThreshold, buffers, mutexes, copy, roles, tasks);
  }

  /** This design with the per-role thread counts of {@code threads}, in role order. */
  public Design withThreadCounts(int[] threads) {
    if (threads.length != roles.size()) {
      throw new IllegalArgumentException("expected " + roles.size() + " thread counts, got " + threads.length);
    }
    List<Role> copy = new ArrayList<>();
    for (int i = 0; i < threads.length; i++) {
      copy.add(roles.get(i).withThreads(threads[i]));
    }
    return new Design(name, vram, poolThreshold, buffers, mutexes, semaphores, copy, tasks);
  }

  private Design mapRole(String roleName, UnaryOperator<Role> f) {
    if (role(roleName).isEmpty()) {
      throw new IllegalArgumentException("no role " + roleName + " in design " + name);
    }
    List<Role> copy = roles.stream().map(r -> r.name().equals(roleName) ? f.apply(r) : r).toList();
    return new Design(name, vram, poolThreshold, buffers, mutexes, semaphores, copy, tasks);
  }

  /**
   * The parameters a check or run uses, as one line for people: vram, each role's threads and jobs, each semaphore's
   * permits (for example {@code vram 16GiB, gpu_worker x2 jobs 2, units 4 permits}).
   */
  public String parametersLine() {
    List<String> parts = new ArrayList<>();
    parts.add("vram " + Sizes.format(vram));
    for (Role r : roles) {
      parts.add(r.name() + " x" + r.threads() + " jobs " + (r.loops() ? "any" : r.jobs()));
    }
    semaphores.forEach(s -> parts.add(s.name() + " " + s.permits() + " permits"));
    return String.join(", ", parts);
  }
}
