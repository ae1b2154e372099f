package dev.interlock.cli;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The design file's overrides shared by commands: --vram, --threads, --jobs, --permits. */
final class DesignOptions {
  @Option(names = "--vram", paramLabel = "SIZE", description = "Device memory, e.g. 16GiB (default: the design's).")
  String vram;

  @Option(names = "--threads", paramLabel = "ROLE=N", description = "Threads of a role (repeatable).")
  Map<String, Integer> threads = new LinkedHashMap<>();

  @Option(names = "--jobs", paramLabel = "ROLE=N", description = "Jobs per thread of a role (repeatable).")
  Map<String, Integer> jobs = new LinkedHashMap<>();

  @Option(names = "--permits", paramLabel = "SEMAPHORE=N", description = "Initial permits of a semaphore (repeatable).")
  Map<String, Integer> permits = new LinkedHashMap<>();

  /** Parses the file and applies the overrides; every problem becomes a one-line error. */
  Design load(Path file) {
    Design d;
    try {
      d = DesignParser.parse(file);
    } catch (DesignException e) {
      throw new CliError(e.getMessage());
    }
    return apply(d);
  }

  Design apply(Design d) {
    if (vram != null) {
      Sizes.Parsed p = Sizes.parse(vram);
      d = d.withVram(p.bytes().orElseThrow(() -> new CliError("--vram: " + p.error())));
    }
    for (Map.Entry<String, Integer> e : threads.entrySet()) {
      d = override(d, "--threads", e, 1).withThreads(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, Integer> e : jobs.entrySet()) {
      d = override(d, "--jobs", e, 1).withJobs(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, Integer> e : permits.entrySet()) {
      if (d.semaphoreIndex(e.getKey()) < 0) {
        throw new CliError("--permits: no semaphore '" + e.getKey() + "' in design " + d.name());
      }
      if (e.getValue() < 0) {
        throw new CliError("--permits " + e.getKey() + ": needs a count of 0 or more, got " + e.getValue());
      }
      d = d.withPermits(e.getKey(), e.getValue());
    }
    return d;
  }

  private static Design override(Design d, String option, Map.Entry<String, Integer> e, int min) {
    if (d.role(e.getKey()).isEmpty()) {
      throw new CliError(option + ": no role '" + e.getKey() + "' in design " + d.name() + " (roles: "
          + String.join(", ", d.roles().stream().map(r -> r.name()).toList()) + ")");
    }
    if (e.getValue() < min) {
      throw new CliError(option + " " + e.getKey() + ": needs at least " + min + ", got " + e.getValue());
    }
    return d;
  }
}
