package dev.interlock.properties.shrink;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.SpawnTree;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceStep;
import dev.interlock.properties.engine.ShrinkResult;
import dev.interlock.properties.engine.Shrinker;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Shrinks a violating schedule of the model, keeping its violation kind: first drops threads (a
 * role thread with its tasks, the role's later threads renumbered), then jobs, then lets the
 * engine's {@link Shrinker} delete and lower the remaining thread picks.
 *
 * <p>A candidate is the schedule's thread names with some taken out, run with {@link LenientReplay}
 * on the design with the smaller counts; it is kept when it still ends in the same kind, as the
 * picks that actually executed. Each stage only takes picks out, so the result never has more
 * threads per role, jobs or transitions than the schedule as found.
 */
public final class ScheduleShrinker {
  private static final Pattern TASK_JOB = Pattern.compile("(.*/[^/@]+)@([0-9]+)((?:\\.[0-9]+)?)");

  private final int maxAttempts;

  /** A shrinker whose last stage runs at most {@link Shrinker#DEFAULT_MAX_ATTEMPTS} candidates. */
  public ScheduleShrinker() {
    this(Shrinker.DEFAULT_MAX_ATTEMPTS);
  }

  /** A shrinker whose last stage runs at most {@code maxAttempts} candidates. */
  public ScheduleShrinker(int maxAttempts) {
    if (maxAttempts < 0) {
      throw new IllegalArgumentException("maxAttempts must be >= 0, got " + maxAttempts);
    }
    this.maxAttempts = maxAttempts;
  }

  /**
   * Shrinks {@code violating}, a trace of {@code design} (at the trace's parameters) that ends in a
   * violation; the result's trace keeps the original's source and seed.
   */
  public ShrunkSchedule shrink(Design design, Trace violating) {
    Objects.requireNonNull(design, "design");
    Objects.requireNonNull(violating, "violating");
    return new Run(ShrunkSchedule.kind(violating)).shrink(violating.params().applyTo(design), violating);
  }

  /** A design at the current counts and a schedule of it (thread names) that ends in the kind. */
  private record Current(Design design, List<String> picks) {}

  /**
   * One way to make a schedule smaller, for the schedule as it stands: a role's units (threads or jobs), the design
   * with one unit fewer, and the picks without unit {@code i}.
   */
  private record Cut(ToIntFunction<Role> units, BiFunction<Design, Role, Design> smaller,
      BiFunction<Role, Integer, List<String>> candidate) {}

  /** One shrink: the kind to keep and the candidates run so far. */
  private final class Run {
    private final ViolationKind kind;
    private int attempts;

    Run(ViolationKind kind) {
      this.kind = kind;
    }

    ShrunkSchedule shrink(Design design, Trace violating) {
      List<String> found = violating.steps().stream().map(TraceStep::thread).toList();
      Current c = new Current(design, run(new LenientReplay(new Model(design), kind), found)
          .orElseThrow(() -> new IllegalArgumentException("the trace does not end in " + kind + " on design " + design.name())));
      for (Design before = null; before != c.design(); ) {
        before = c.design();
        c = dropJobs(dropThreads(c));
      }
      LenientReplay replay = new LenientReplay(new Model(c.design()), kind);
      ShrinkResult r = new Shrinker(maxAttempts).shrinkReplaying(replay.indices(c.picks()), replay::executed);
      attempts += r.attempts();
      return new ShrunkSchedule(violating, replay.trace(r.choices(), violating.source(), violating.seed()), attempts);
    }

    /** Drops one thread of a role at a time, while any can go. */
    private Current dropThreads(Current c) {
      return dropWhileAny(c, now -> new Cut(Role::threads, (d, r) -> d.withThreads(r.name(), r.threads() - 1),
          (r, i) -> withoutThread(now.picks(), r.name(), i)));
    }

    /**
     * Drops one job of a role at a time, while any can go: each worker that reached the role's last
     * job loses the picks of one job (the same job number for all, tried from the first), and its
     * later task threads are renumbered.
     */
    private Current dropJobs(Current c) {
      return dropWhileAny(c, now -> {
        LenientReplay replay = new LenientReplay(new Model(now.design()), kind);
        int[] jobs = replay.jobs(replay.indices(now.picks()));
        return new Cut(Role::jobs, (d, r) -> d.withJobs(r.name(), r.jobs() - 1), (r, job) -> withoutJob(now.picks(), jobs, r, job));
      });
    }

    /**
     * Takes one unit (a thread or a job) of a role out at a time, the first candidate that still ends in the kind,
     * while any can go; {@code cutOf} says, for the schedule as it stands, what the units are and what a candidate is.
     */
    private Current dropWhileAny(Current c, Function<Current, Cut> cutOf) {
      boolean dropped = true;
      while (dropped) {
        dropped = false;
        Cut cut = cutOf.apply(c);
        for (Role r : c.design().roles()) {
          int units = cut.units().applyAsInt(r);
          if (units == 1) {
            continue;
          }
          Design smaller = cut.smaller().apply(c.design(), r);
          LenientReplay replay = new LenientReplay(new Model(smaller), kind);
          for (int i = 0; i < units && !dropped; i++) {
            Optional<List<String>> ok = run(replay, cut.candidate().apply(r, i));
            if (ok.isPresent()) {
              c = new Current(smaller, ok.get());
              dropped = true;
            }
          }
          if (dropped) {
            break;
          }
        }
      }
      return c;
    }

    /** The candidate's executed picks, when it still ends in the kind. */
    private Optional<List<String>> run(LenientReplay replay, List<String> picks) {
      attempts++;
      return replay.executed(replay.indices(picks)).map(replay::names);
    }
  }

  /** The picks without thread i of the role (and its tasks), the role's later threads one lower. */
  static List<String> withoutThread(List<String> picks, String role, int i) {
    List<String> out = new ArrayList<>(picks.size());
    for (String p : picks) {
      String roleThread = SpawnTree.roleThreadOf(p);
      int hash = roleThread.lastIndexOf('#');
      if (!roleThread.substring(0, hash).equals(role)) {
        out.add(p);
        continue;
      }
      int n = Integer.parseInt(roleThread.substring(hash + 1));
      if (n != i) {
        out.add(n < i ? p : role + "#" + (n - 1) + p.substring(roleThread.length()));
      }
    }
    return out;
  }

  /**
   * The picks where each worker of role r that reached its last job loses the picks of job
   * {@code job}; its task threads of later jobs are renumbered one lower.
   */
  static List<String> withoutJob(List<String> picks, int[] jobs, Role r, int job) {
    List<String> reached = new ArrayList<>();
    for (int i = 0; i < picks.size(); i++) {
      String w = SpawnTree.roleThreadOf(picks.get(i));
      if (jobs[i] == r.jobs() - 1 && role(w).equals(r.name()) && !reached.contains(w)) {
        reached.add(w);
      }
    }
    List<String> out = new ArrayList<>(picks.size());
    for (int i = 0; i < picks.size(); i++) {
      String p = picks.get(i);
      if (!reached.contains(SpawnTree.roleThreadOf(p)) || jobs[i] < job) {
        out.add(p);
      } else if (jobs[i] > job) {
        out.add(earlierJob(p));
      }
    }
    return out;
  }

  private static String role(String roleThread) {
    return roleThread.substring(0, roleThread.lastIndexOf('#'));
  }

  /** A task thread's name with its job number one lower; a role thread's name as it is. */
  private static String earlierJob(String thread) {
    Matcher m = TASK_JOB.matcher(thread);
    if (!m.matches()) {
      return thread;
    }
    return m.group(1) + "@" + (Integer.parseInt(m.group(2)) - 1) + m.group(3);
  }
}
