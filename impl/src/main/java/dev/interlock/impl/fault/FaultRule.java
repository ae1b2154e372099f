package dev.interlock.impl.fault;

import dev.interlock.model.step.Names;
import java.util.Locale;
import java.util.Objects;

/**
 * One item of a fault spec: a rate ({@code KIND=RATE}) or one injection at a step ({@code KIND@STEP:N}).
 *
 * <p>Sealed so that the injector handles both forms and nothing else.
 */
public sealed interface FaultRule permits FaultRule.Rate, FaultRule.AtStep {

  FaultKind kind();

  /** The item as a spec writes it. */
  String text();

  /** {@code KIND=RATE}: each call of that kind fails with probability {@code probability}. */
  record Rate(FaultKind kind, double probability) implements FaultRule {
    public Rate {
      Objects.requireNonNull(kind, "kind");
      if (!(probability >= 0 && probability <= 1)) {
        throw new IllegalArgumentException("a rate is a probability from 0 to 1, got " + probability);
      }
    }

    @Override
    public String text() {
      return kind.specName() + "=" + String.format(Locale.ROOT, "%s", probability);
    }
  }

  /** {@code KIND@STEP:N}: the Nth (1-based) execution of the step named {@code step} gets the fault, once. */
  record AtStep(FaultKind kind, String step, int n) implements FaultRule {
    public AtStep {
      Objects.requireNonNull(kind, "kind");
      Names.require("step", step);
      if (n < 1) {
        throw new IllegalArgumentException("N counts executions from 1, got " + n);
      }
    }

    @Override
    public String text() {
      return kind.specName() + "@" + step + ":" + n;
    }
  }
}
