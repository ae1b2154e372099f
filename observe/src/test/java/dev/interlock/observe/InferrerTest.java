package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InferrerTest {
  private static final long SEED = 14;

  static String verdict(Design d) {
    return Checker.check(d, d.name() + ".design", Checker.Options.defaults(2_000_000)).verdict().label();
  }

  @Test
  void inferredShippedDesignsParseConformAndGetTheOriginalsVerdict() throws Exception {
    for (String f : List.of("designs/two-lock.design", "designs/single-lock.design", "designs/reservation.design")) {
      Design d = Runs.design(f);
      Capture c = Runs.capture(Runs.records(d, Runs.run(d, SEED), true));
      String text = Inferrer.infer(c, Mapping.NONE, Optional.empty());
      Design inferred = DesignParser.parse("inferred.design", text);
      Validation v = Validator.validate(inferred, "inferred.design", text, c, Mapping.NONE);
      String original = verdict(d);
      String got = verdict(inferred);
      System.out.println("[interlock] infer " + f + " seed=" + SEED + ": " + v.summary() + "; check " + got + " (original "
          + original + ")\n" + text);
      assertThat(v).as(f).isInstanceOf(Validation.Conforms.class);
      assertThat(got).as(f).isEqualTo(original);
    }
  }
}
