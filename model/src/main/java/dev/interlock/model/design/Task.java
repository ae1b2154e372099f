package dev.interlock.model.design;

import dev.interlock.model.step.Names;
import dev.interlock.model.step.Step;
import java.util.List;

/** {@code task NAME} and its body: code a helper thread runs once for each {@code spawn NAME}. */
public record Task(String name, List<Step> body) {
  public Task {
    Names.require("task", name);
    body = List.copyOf(body);
    if (body.isEmpty()) {
      throw new IllegalArgumentException("task " + name + " has no steps");
    }
  }
}
