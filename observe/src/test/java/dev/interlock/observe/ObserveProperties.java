package dev.interlock.observe;

import dev.interlock.impl.engine.RunReport;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.DesignPrinter;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.trace.Outcome;
import dev.interlock.properties.engine.Config;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Steps;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Random designs run on the engine and written as captures conform to their design; their inferred designs parse. */
class ObserveProperties {
  /** Runs without tasks that completed or ended in OOM: what a capture can show in full. */
  private static Optional<Capture> captured(Design d, long seed) {
    if (!d.tasks().isEmpty()) {
      return Optional.empty();
    }
    RunReport r = Runs.run(d, seed);
    boolean shown = r.trace().outcome() instanceof Outcome.Completed
        || r.trace().outcome() instanceof Outcome.Violated v && v.violation().kind() == ViolationKind.OOM;
    return shown ? Optional.of(Runs.capture(Runs.records(d, r, false))) : Optional.empty();
  }

  /** Whether a role of {@code d} allocates a buffer with {@code keep}. */
  private static boolean keepsBuffers(Design d) {
    return d.roles().stream().flatMap(r -> Steps.flatten(r.body()).stream()).anyMatch(s -> s instanceof Alloc a && a.keep());
  }

  @Test
  void engineRunsOfRandomDesignsConform() {
    PropertyRunner.assertHolds("engine runs of random designs conform to them", DesignGen.designs(), d -> {
      // a kept buffer: the engine frees it after the worker's last job without an event, so the capture written from its
      // events never shows that free, while the validator's model (one job more than the capture shows, since it cannot
      // know a worker's last job) still holds the buffer: an allocation after it then looks like an OOM the run escaped
      if (keepsBuffers(d)) {
        return true;
      }
      Optional<Capture> c = captured(d, 1);
      if (c.isEmpty()) {
        return true;
      }
      String text = DesignPrinter.print(d);
      Validation v = Validator.validate(d, "random.design", text, c.get(), Mapping.NONE);
      if (!(v instanceof Validation.Conforms)) {
        throw new AssertionError(v.summary() + "\n" + text + CaptureWriter.text(c.get().events()));
      }
      return true;
    }, Config.defaults("observe-conform").withTries(40));
  }

  @Test
  void engineRunsWithAllocationsInPartsConformWithTheirGroupsAndDivergeWithout() {
    java.util.concurrent.atomic.AtomicInteger splitRuns = new java.util.concurrent.atomic.AtomicInteger();
    PropertyRunner.assertHolds("engine runs with allocations in parts conform with groups, diverge without", DesignGen.designs(), d -> {
      Optional<Capture> c = captured(d, 1);
      if (c.isEmpty()) {
        return true;
      }
      String text = DesignPrinter.print(d);
      Validation plainV = Validator.validate(d, "random.design", text, c.get(), Mapping.NONE);
      if (!(plainV instanceof Validation.Conforms p)) {
        // engineRunsOfRandomDesignsConform owns that property (the same run, seed 1); this one is about groups
        return true;
      }
      // a buffer is split when it has one size in the whole design, which no other buffer has: then a size says which
      // buffer an allocation is; into 2 to 4 parts, fixed by the buffer's name so that the design's seed reproduces it
      Map<String, Set<Long>> sizes = new TreeMap<>();
      d.roles().forEach(r -> Steps.flatten(r.body()).forEach(s -> {
        if (s instanceof Alloc a) {
          sizes.computeIfAbsent(a.buffer(), k -> new TreeSet<>()).add(a.bytes());
        }
      }));
      Map<String, List<Long>> groups = new TreeMap<>();
      Map<Long, List<Long>> bySize = new HashMap<>();
      sizes.forEach((b, ss) -> {
        long bytes = ss.iterator().next();
        int k = 2 + Math.floorMod(b.hashCode(), 3);
        boolean unique = ss.size() == 1 && sizes.values().stream().filter(o -> o.contains(bytes)).count() == 1;
        if (unique && bytes >= k) {
          groups.put(b, SplitAllocs.parts(bytes, k));
          bySize.put(bytes, SplitAllocs.parts(bytes, k));
        }
      });
      List<CaptureEvent> plain = c.get().events();
      List<CaptureEvent> split = ValidatorTest.renumber(SplitAllocs.split(plain, bySize, 1));
      String mapping = SplitAllocs.groupLines(groups);
      Mapping map;
      try {
        map = Mapping.parse("groups.map", mapping);
      } catch (CaptureFormatException e) {
        throw new AssertionError(e.getMessage() + "\n" + mapping, e);
      }
      Validation with = Validator.validate(d, "random.design", text, Runs.capture(split), map);
      String shown = "\n" + text + "--- mapping\n" + mapping + "--- capture\n" + CaptureWriter.text(split);
      if (!(with instanceof Validation.Conforms w)) {
        throw new AssertionError("with groups: " + with.summary() + " (without splitting: " + plainV.summary() + ")" + shown);
      }
      if ((p.oomLine() > 0) != (w.oomLine() > 0)) {
        throw new AssertionError("the split run's OOM differs: " + w.summary() + " (without splitting: " + p.summary() + ")" + shown);
      }
      Optional<CaptureEvent> firstPart = split.stream().filter(e -> e instanceof CaptureEvent.Alloc a
          && bySize.values().stream().anyMatch(ps -> ps.contains(a.bytes())) && !bySize.containsKey(a.bytes())).findFirst();
      if (firstPart.isPresent()) {
        splitRuns.incrementAndGet();
        Validation without = Validator.validate(d, "random.design", text, Runs.capture(split), Mapping.NONE);
        if (!(without instanceof Validation.Diverges v) || v.line() != firstPart.get().line()) {
          throw new AssertionError("without groups, expected a divergence at line " + firstPart.get().line() + ": " + without.summary() + shown);
        }
      }
      return true;
    }, Config.defaults("observe-groups").withTries(40));
    System.out.println("[interlock] observe-groups: " + splitRuns.get() + " runs had allocations in parts");
  }

  @Test
  void anAllocationResizedToASizeTheDesignDoesNotHaveDivergesAtThatAllocation() {
    java.util.concurrent.atomic.AtomicInteger mutated = new java.util.concurrent.atomic.AtomicInteger();
    PropertyRunner.assertHolds("a resized allocation diverges there", DesignGen.designs(), d -> {
      if (!d.tasks().isEmpty()) {
        return true;
      }
      RunReport r = Runs.run(d, 1);
      if (!(r.trace().outcome() instanceof Outcome.Completed
          || r.trace().outcome() instanceof Outcome.Violated v && v.violation().kind() == ViolationKind.OOM)) {
        return true;
      }
      // threads named after their roles, so that the resized allocation cannot move its thread to another role
      List<CaptureEvent> events = new java.util.ArrayList<>(Runs.records(d, r, true));
      String text = DesignPrinter.print(d);
      if (!(Validator.validate(d, "random.design", text, Runs.capture(events), Mapping.NONE) instanceof Validation.Conforms)) {
        return true; // engineRunsOfRandomDesignsConform owns that
      }
      Set<Long> sizes = new java.util.HashSet<>();
      d.roles().forEach(role -> Steps.flatten(role.body()).forEach(st -> {
        if (st instanceof Alloc a) {
          sizes.add(a.bytes());
        }
      }));
      List<Integer> allocs = new java.util.ArrayList<>();
      for (int i = 0; i < events.size(); i++) {
        if (events.get(i) instanceof CaptureEvent.Alloc a && a.rc() == 0 && !sizes.contains(a.bytes() + 4096)) {
          allocs.add(i);
        }
      }
      if (allocs.isEmpty()) {
        return true;
      }
      int k = allocs.get(Math.floorMod(text.hashCode(), allocs.size())); // fixed by the design, so its seed reproduces it
      CaptureEvent.Alloc a = (CaptureEvent.Alloc) events.get(k);
      events.set(k, new CaptureEvent.Alloc(a.line(), a.nanos(), a.tid(), a.ptr(), a.bytes() + 4096, a.async(), a.stream(),
          a.rc(), a.api()));
      Capture m = Runs.capture(events);
      Validation v = Validator.validate(d, "random.design", text, m, Mapping.NONE);
      int line = m.events().get(k).line();
      if (!(v instanceof Validation.Diverges dv) || dv.line() != line) {
        throw new AssertionError("expected DIVERGES at run.capture:" + line + ", got " + v.summary() + "\n" + text);
      }
      mutated.incrementAndGet();
      return true;
    }, Config.defaults("observe-mutate").withTries(100));
    System.out.println("[interlock] observe-mutate: " + mutated.get() + " runs had an allocation resized");
    org.assertj.core.api.Assertions.assertThat(mutated.get()).as("runs the property mutated").isGreaterThanOrEqualTo(10);
  }

  @Test
  void inferredDesignsParseAndConformToTheirRun() {
    PropertyRunner.assertHolds("inferred designs parse and conform to their run", DesignGen.designs(), d -> {
      // the engine frees kept buffers without an event, so a capture written from its events would show them leak
      Optional<Capture> c = keepsBuffers(d) ? Optional.empty() : captured(d, 2);
      if (c.isEmpty() || c.get().events().stream().noneMatch(e -> e instanceof CaptureEvent.Acquire
          || e instanceof CaptureEvent.Alloc || e instanceof CaptureEvent.RangePush)) {
        return true;
      }
      String text = Inferrer.infer(c.get(), Mapping.NONE, Optional.empty());
      try {
        Design inferred = DesignParser.parse("inferred.design", text);
        Validation v = Validator.validate(inferred, "inferred.design", text, c.get(), Mapping.NONE);
        if (!(v instanceof Validation.Conforms)) {
          throw new AssertionError(v.summary() + "\n" + text + "\n--- from\n" + DesignPrinter.print(d));
        }
      } catch (dev.interlock.model.design.DesignException e) {
        throw new AssertionError(e.getMessage() + "\n" + text, e);
      }
      return true;
    }, Config.defaults("observe-infer").withTries(40));
  }
}
