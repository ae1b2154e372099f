package dev.interlock.impl.fault;

import dev.interlock.model.step.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A parsed {@code --faults} spec: comma-separated {@code KIND=RATE} and {@code KIND@STEP:N} items.
 *
 * <p>Why: the spec is the user's one knob for which faults a run gets, so it is checked whole before the run starts
 * and a bad item is named with its position. At most one rate per kind.
 *
 * @param rules the items in the order given
 */
public record FaultSpec(List<FaultRule> rules) {
  /** No faults. */
  public static final FaultSpec NONE = new FaultSpec(List.of());

  public FaultSpec {
    rules = List.copyOf(rules);
    List<FaultKind> rated = rules.stream().filter(r -> r instanceof FaultRule.Rate).map(FaultRule::kind).toList();
    if (rated.size() != rated.stream().distinct().count()) {
      throw new IllegalArgumentException("at most one rate per kind: " + rated);
    }
  }

  /** Whether it injects nothing. */
  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The rate of {@code kind}, 0 when none is given. */
  public double rate(FaultKind kind) {
    return rules.stream().filter(r -> r instanceof FaultRule.Rate && r.kind() == kind).map(r -> ((FaultRule.Rate) r).probability())
        .findFirst().orElse(0.0);
  }

  /** The {@code KIND@STEP:N} items. */
  public List<FaultRule.AtStep> atSteps() {
    return rules.stream().filter(r -> r instanceof FaultRule.AtStep).map(r -> (FaultRule.AtStep) r).toList();
  }

  /** As a spec writes it; parses back to an equal spec. */
  public String text() {
    return rules.stream().map(FaultRule::text).collect(Collectors.joining(","));
  }

  /**
   * Parses {@code spec} given as option {@code option} (for messages, e.g. {@code --faults}).
   *
   * @throws FaultSpecException naming the option, the item and what is wrong with it
   */
  public static FaultSpec parse(String option, String spec) {
    if (spec == null || spec.isBlank()) {
      throw new FaultSpecException(option, spec == null ? "" : spec, 1, 1, "", "empty spec: give KIND=RATE or KIND@STEP:N items, "
          + "comma-separated (kinds: " + FaultKind.specNames() + ")");
    }
    List<FaultRule> rules = new ArrayList<>();
    int column = 1;
    int index = 1;
    for (String item : spec.split(",", -1)) {
      rules.add(item(option, spec, index, column, item, rules));
      column += item.length() + 1;
      index++;
    }
    return new FaultSpec(rules);
  }

  private static FaultRule item(String option, String spec, int index, int column, String raw, List<FaultRule> before) {
    String item = raw.strip();
    int lead = raw.indexOf(item.isEmpty() ? raw : item);
    int at = column + Math.max(0, lead);
    if (item.isEmpty()) {
      throw new FaultSpecException(option, spec, index, column, raw, "empty item (two commas, or a comma at an end)");
    }
    int eq = item.indexOf('=');
    int atSign = item.indexOf('@');
    if (eq < 0 && atSign < 0) {
      throw new FaultSpecException(option, spec, index, at, item, "needs KIND=RATE or KIND@STEP:N");
    }
    boolean rate = eq >= 0 && (atSign < 0 || eq < atSign);
    int sep = rate ? eq : atSign;
    String kindText = item.substring(0, sep);
    Optional<FaultKind> kind = FaultKind.ofSpecName(kindText);
    if (kind.isEmpty()) {
      throw new FaultSpecException(option, spec, index, at, item, "unknown fault kind '" + kindText + "' (kinds: " + FaultKind.specNames() + ")");
    }
    String rest = item.substring(sep + 1);
    int restAt = at + sep + 1;
    if (rate) {
      double p;
      try {
        p = Double.parseDouble(rest);
      } catch (NumberFormatException e) {
        throw new FaultSpecException(option, spec, index, restAt, item, "rate '" + rest + "' is not a number (a probability from 0 to 1, e.g. 0.05)");
      }
      if (!(p >= 0 && p <= 1)) {
        throw new FaultSpecException(option, spec, index, restAt, item, "rate " + rest + " is not a probability from 0 to 1");
      }
      if (before.stream().anyMatch(r -> r instanceof FaultRule.Rate && r.kind() == kind.get())) {
        throw new FaultSpecException(option, spec, index, at, item, "a second rate for " + kindText + " (give each kind's rate once)");
      }
      return new FaultRule.Rate(kind.get(), p);
    }
    int colon = rest.lastIndexOf(':');
    if (colon < 0) {
      throw new FaultSpecException(option, spec, index, restAt, item, "needs STEP:N after '@', e.g. " + kindText + "@staged:3");
    }
    String step = rest.substring(0, colon);
    if (!Names.isIdentifier(step)) {
      throw new FaultSpecException(option, spec, index, restAt, item, "step '" + step + "' is not a name (the buffer, kernel, cpu interval, "
          + "mutex or semaphore the step acts on, or the step's keyword)");
    }
    String nText = rest.substring(colon + 1);
    int n;
    try {
      n = Integer.parseInt(nText);
    } catch (NumberFormatException e) {
      throw new FaultSpecException(option, spec, index, restAt + colon + 1, item, "N '" + nText + "' is not a whole number");
    }
    if (n < 1) {
      throw new FaultSpecException(option, spec, index, restAt + colon + 1, item, "N counts executions from 1, got " + n);
    }
    return new FaultRule.AtStep(kind.get(), step, n);
  }
}
