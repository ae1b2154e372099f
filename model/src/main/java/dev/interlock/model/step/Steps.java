package dev.interlock.model.step;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Walks over bodies whose {@code if} steps nest other steps. */
public final class Steps {
  private Steps() {}

  /** The design lines of step s: one line, or an {@code if} block with its branches. */
  public static List<String> lines(Step s) {
    return s instanceof IfFree f ? f.lines() : List.of(s.text());
  }

  /** Every step of body in textual order, the steps inside {@code if} blocks included. */
  public static List<Step> flatten(List<Step> body) {
    List<Step> out = new ArrayList<>();
    forEach(body, out::add);
    return out;
  }

  /** Calls action on every step of body in textual order, the steps inside {@code if} blocks included. */
  public static void forEach(List<Step> body, Consumer<Step> action) {
    for (Step s : body) {
      action.accept(s);
      if (s instanceof IfFree f) {
        forEach(f.then(), action);
        forEach(f.otherwise(), action);
      }
    }
  }
}
