package dev.interlock.cli;

import dev.interlock.impl.api.Pipeline;
import dev.interlock.impl.pipeline.HandWrittenPipelines;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.design.Role;
import java.util.function.Function;

/** The --pipeline option: the design interpreter, or the hand-written pipeline of a shipped design. */
final class Pipelines {
  private Pipelines() {}

  static Function<Role, Pipeline> choose(String kind, String designName) {
    return switch (kind) {
      case "interpreted" -> InterpretedPipeline::new;
      case "hand-written" -> HandWrittenPipelines.forDesign(designName).orElseThrow(() -> new CliError(
          "--pipeline hand-written: no hand-written pipeline for design " + designName
              + " (there are: single-lock, two-lock, single-lock-late-release, reservation)"));
      default -> throw new CliError("--pipeline must be interpreted or hand-written, got '" + kind + "'");
    };
  }
}
