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
import java.util.Optional;
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

  @Test
  void engineRunsOfRandomDesignsConform() {
    PropertyRunner.assertHolds("engine runs of random designs conform to them", DesignGen.designs(), d -> {
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
  void inferredDesignsParseAndConformToTheirRun() {
    PropertyRunner.assertHolds("inferred designs parse and conform to their run", DesignGen.designs(), d -> {
      // the engine frees kept buffers without an event, so a capture written from its events would show them leak
      boolean keeps = d.roles().stream().flatMap(r -> dev.interlock.model.step.Steps.flatten(r.body()).stream())
          .anyMatch(s -> s instanceof dev.interlock.model.step.Alloc a && a.keep());
      Optional<Capture> c = keeps ? Optional.empty() : captured(d, 2);
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
