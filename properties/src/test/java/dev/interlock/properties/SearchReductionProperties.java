package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.Exploration;
import dev.interlock.model.check.Explorer;
import dev.interlock.model.check.Finding;
import dev.interlock.model.check.OverlapQuery;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Task;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Step;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.properties.model.ReductionDesigns;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Partial-order reduction and the multi-threaded search against the plain single-threaded search, on random designs:
 * the same verdicts, violation kinds, shortest lengths and overlap answers; the same result on 1 and 2 threads and on
 * two runs. Every level is split among the threads here (the split threshold is lowered), so small designs exercise it.
 */
class SearchReductionProperties {
  private static final long MAX_STATES = 30_000;

  @BeforeEach
  void splitEveryLevel() {
    System.setProperty(Explorer.PARALLEL_LEVEL_PROPERTY, "1");
  }

  @AfterEach
  void restoreSplit() {
    System.clearProperty(Explorer.PARALLEL_LEVEL_PROPERTY);
  }

  static Explorer.Options options(boolean por, int threads, Optional<OverlapQuery> overlap) {
    return new Explorer.Options(MAX_STATES, true, true, overlap).withSearch(por, threads, Long.MAX_VALUE);
  }

  static Map<ViolationKind, Integer> shortest(Exploration e) {
    Map<ViolationKind, Integer> m = new EnumMap<>(ViolationKind.class);
    for (Finding f : e.findings()) {
      m.put(f.violation().kind(), f.trace().length());
    }
    return m;
  }

  /** No query, and the design's first interval against its last (the generator names them k, c, c2). */
  static List<Optional<OverlapQuery>> queries(Design d) {
    List<String> names = new Model(d).intervalNames();
    List<Optional<OverlapQuery>> out = new ArrayList<>();
    out.add(Optional.empty());
    if (!names.isEmpty()) {
      out.add(Optional.of(new OverlapQuery(names.get(0), names.get(names.size() - 1), false)));
    }
    return out;
  }

  /**
   * The design with every allocation synchronous: without the pool's per-stream caches more steps are local (see
   * Model.localStep), so the reduction has more to do.
   */
  static Design synchronous(Design d) {
    List<Role> roles = d.roles().stream().map(r -> new Role(r.name(), r.threads(), r.jobs(), synchronous(r.body()))).toList();
    List<Task> tasks = d.tasks().stream().map(t -> new Task(t.name(), synchronous(t.body()))).toList();
    return new Design(d.name(), d.vram(), d.poolThreshold(), d.buffers(), d.mutexes(), d.semaphores(), roles, tasks);
  }

  private static List<Step> synchronous(List<Step> body) {
    List<Step> out = new ArrayList<>();
    for (Step s : body) {
      if (s instanceof Alloc a) {
        out.add(new Alloc(a.buffer(), a.bytes(), false, a.keep()));
      } else if (s instanceof IfFree f) {
        out.add(new IfFree(f.atLeast(), f.bytes(), synchronous(f.then()), synchronous(f.otherwise())));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  @Test
  void partialOrderReductionChangesNoAnswer() {
    AtomicInteger cases = new AtomicInteger();
    AtomicInteger reducedCases = new AtomicInteger();
    PropertyRunner.assertHolds("partial-order reduction changes no answer", DesignGen.designs().map(SearchReductionProperties::synchronous), d -> {
      Model m = new Model(d);
      for (Optional<OverlapQuery> q : queries(d)) {
        Exploration plain = Explorer.explore(m, "<random>", options(false, 1, q));
        if (plain.limitReached()) {
          continue;
        }
        cases.incrementAndGet();
        Exploration reduced = Explorer.exploreReduced(m, "<random>", options(true, 1, q));
        Exploration with = Explorer.explore(m, "<random>", options(true, 1, q));
        assertThat(reduced.limitReached()).isFalse();
        assertThat(reduced.states()).isLessThanOrEqualTo(plain.states());
        reducedCases.addAndGet(reduced.reduced() ? 1 : 0);
        // the reduced graph alone decides: the same kinds and the same overlap answer
        assertThat(shortest(reduced).keySet()).as("kinds of the reduced search, query %s", q).isEqualTo(shortest(plain).keySet());
        assertThat(reduced.witness().isPresent()).as("overlap %s", q).isEqualTo(plain.witness().isPresent());
        // its traces are real ones
        for (Finding f : reduced.findings()) {
          assertThat(Replayer.replay(f.trace(), d)).as("replay of the reduced %s", f.violation()).isInstanceOf(ReplayResult.Confirmed.class);
        }
        reduced.witness().ifPresent(t -> assertThat(Replayer.replay(t, d)).isInstanceOf(ReplayResult.Confirmed.class));
        // with the re-run, the answers are the plain search's: shortest lengths and witness
        assertThat(shortest(with)).isEqualTo(shortest(plain));
        assertThat(with.witness().map(t -> t.length())).isEqualTo(plain.witness().map(t -> t.length()));
        assertThat(with.exhaustive()).isEqualTo(plain.exhaustive());
      }
      return true;
    });
    assertThat(reducedCases.get()).as("searches where partial-order reduction reduced a state, of %d", cases.get())
        .isGreaterThan(cases.get() / 10);
  }

  /**
   * Whether the reduced search alone with {@code reduction} decides as the plain one on d: the same violation kinds and
   * overlap answers, with and without a query; its traces replay. Counts searches and those that reduced a state.
   */
  static boolean reducedDecidesAsPlain(Design d, Explorer.Reduction reduction, AtomicInteger cases, AtomicInteger reducedCases) {
    return reducedDecidesAsPlain(d, reduction, queries(d), cases, reducedCases, SearchReductionProperties::plain);
  }

  /** The plain single-threaded search of d, with query q. */
  static Exploration plain(Design d, Optional<OverlapQuery> q) {
    return Explorer.explore(new Model(d), "<random>", options(false, 1, q));
  }

  /** As above, for the given overlap queries only, with the plain search's results from {@code plainOf}. */
  static boolean reducedDecidesAsPlain(Design d, Explorer.Reduction reduction, List<Optional<OverlapQuery>> queries,
      AtomicInteger cases, AtomicInteger reducedCases,
      java.util.function.BiFunction<Design, Optional<OverlapQuery>, Exploration> plainOf) {
    Model m = new Model(d);
    for (Optional<OverlapQuery> q : queries) {
      Exploration plain = plainOf.apply(d, q);
      if (plain.limitReached()) {
        continue;
      }
      cases.incrementAndGet();
      Exploration reduced = Explorer.exploreReduced(m, "<random>", options(true, 1, q), reduction);
      reducedCases.addAndGet(reduced.reduced() ? 1 : 0);
      assertThat(reduced.limitReached()).isFalse();
      assertThat(shortest(reduced).keySet()).as("kinds of the reduced search, query %s", q).isEqualTo(shortest(plain).keySet());
      assertThat(reduced.witness().isPresent()).as("overlap %s", q).isEqualTo(plain.witness().isPresent());
      for (Finding f : reduced.findings()) {
        assertThat(Replayer.replay(f.trace(), d)).as("replay of the reduced %s", f.violation()).isInstanceOf(ReplayResult.Confirmed.class);
      }
    }
    return true;
  }

  /**
   * On designs made to race what a reduction must not take alone (ReductionDesigns: 2-4 workers, tasks sharing the
   * role's buffers and events, async allocations near the vram line, kept buffers, if free, sync): the reduced search
   * decides as the plain one, and with the re-run reports the plain one's shortest lengths.
   */
  @Test
  void partialOrderReductionChangesNoAnswerOnRacingDesigns() {
    AtomicInteger cases = new AtomicInteger();
    AtomicInteger reducedCases = new AtomicInteger();
    PropertyRunner.assertHolds("partial-order reduction changes no answer on racing designs", ReductionDesigns.designs(),
        d -> {
          reducedDecidesAsPlain(d, Explorer.Reduction.MODEL, cases, reducedCases);
          Model m = new Model(d);
          Exploration plain = Explorer.explore(m, "<random>", options(false, 1, Optional.empty()));
          if (!plain.limitReached()) {
            Exploration with = Explorer.explore(m, "<random>", options(true, 1, Optional.empty()));
            assertThat(shortest(with)).isEqualTo(shortest(plain));
          }
          return true;
          // 70 tries in mvn verify; -Dinterlock.reduction.tries=1000 for a deeper run
        }, Config.defaults("partial-order reduction changes no answer on racing designs")
        .withTries(Integer.getInteger("interlock.reduction.tries", 70)));
    assertThat(reducedCases.get()).as("searches where partial-order reduction reduced a state, of %d", cases.get())
        .isGreaterThan(cases.get() / 3);
  }

  @Test
  void oneAndTwoSearchThreadsGiveTheSameSearch() {
    PropertyRunner.assertHolds("the search does not depend on the thread count", DesignGen.designs(), design -> {
      for (Design d : List.of(design, synchronous(design))) {
        Model m = new Model(d);
        boolean por = d != design;
        Optional<OverlapQuery> q = queries(d).get(queries(d).size() - 1);
        Exploration one = Explorer.explore(m, "<random>", options(por, 1, q));
        Exploration two = Explorer.explore(m, "<random>", options(por, 2, q));
        Exploration again = Explorer.explore(m, "<random>", options(por, 2, q));
        for (Exploration e : List.of(two, again)) {
          assertThat(summary(e)).as("por %s", por).isEqualTo(summary(one));
        }
      }
      return true;
    });
  }

  @Test
  void aStateLimitStopsBothSearchesAlike() {
    PropertyRunner.assertHolds("the state limit does not depend on the thread count", DesignGen.designs(), d -> {
      Model m = new Model(d);
      Explorer.Options small = new Explorer.Options(200, true, true, Optional.empty());
      Exploration one = Explorer.explore(m, "<random>", small.withSearch(false, 1, Long.MAX_VALUE));
      Exploration two = Explorer.explore(m, "<random>", small.withSearch(false, 2, Long.MAX_VALUE));
      assertThat(summary(two)).isEqualTo(summary(one));
      assertThat(one.states()).isLessThanOrEqualTo(200);
      return true;
    });
  }

  /** Everything a search reports but its wall time and memory: statistics, findings and traces as text. */
  private static String summary(Exploration e) {
    StringBuilder b = new StringBuilder();
    b.append(e.states()).append(' ').append(e.transitions()).append(' ').append(e.limitReached()).append(' ')
        .append(e.exhaustive()).append(' ').append(e.reduced()).append('\n');
    for (Finding f : e.findings()) {
      b.append(f.violation()).append('\n').append(TraceFormat.print(f.trace()));
    }
    e.witness().ifPresent(t -> b.append("witness\n").append(TraceFormat.print(t)));
    return b.toString();
  }
}
