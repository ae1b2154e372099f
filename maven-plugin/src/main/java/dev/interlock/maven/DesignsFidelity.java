package dev.interlock.maven;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.fidelity.Fidelity;
import dev.interlock.fidelity.FidelityOptions;
import dev.interlock.fidelity.FidelityReport;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.view.json.JsonTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The work of {@code interlock:fidelity}: finds the designs, compares each design's model verdict with the simulated
 * device ({@link Fidelity}), logs a line per design, writes the report and says which designs disagree.
 */
public final class DesignsFidelity {
  private DesignsFidelity() {}

  /** The report's file name, under the output directory. */
  static final String SUMMARY = "summary.json";

  /**
   * One design's comparison.
   *
   * @param file    the path relative to the design directory (with {@code /})
   * @param source  the path as shown: relative to the project's directory where it is under it
   * @param report  the comparison
   * @param seconds wall time of the comparison, the model's search included
   */
  public record DesignOutcome(String file, String source, FidelityReport report, double seconds) {
    public DesignOutcome {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(report, "report");
    }
  }

  /** Every design's comparison, in path order. */
  public record Outcome(List<DesignOutcome> designs) {
    public Outcome {
      designs = List.copyOf(designs);
    }

    /** The designs whose device did not do what the model says (a LIMIT among them): they fail the build. */
    public List<DesignOutcome> disagreeing() {
      return designs.stream().filter(d -> !d.report().agrees()).toList();
    }

    /** The build failure's message: each disagreeing design with both sides; empty when all agree. */
    public String failureMessage() {
      List<DesignOutcome> bad = disagreeing();
      if (bad.isEmpty()) {
        return "";
      }
      StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%d of %d design%s disagree%s with the model:%n",
          bad.size(), designs.size(), designs.size() == 1 ? "" : "s", bad.size() == 1 ? "s" : ""));
      for (DesignOutcome d : bad) {
        b.append(System.lineSeparator()).append(d.source()).append(System.lineSeparator())
            .append("  model  ").append(d.report().model().text()).append(System.lineSeparator())
            .append("  device ").append(d.report().device().text()).append(System.lineSeparator());
      }
      return b.toString();
    }
  }

  /** Compares every design {@code s} selects; writes the report under {@code s.outputDirectory()}. */
  public static Outcome run(FidelitySettings s, DesignsCheck.Log log) throws PluginInputException, IOException {
    List<DesignFiles.Selected> selected = DesignFiles.select(s.basedir(), s.directory(), s.includes(), s.excludes());
    List<Design> designs = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (DesignFiles.Selected f : selected) {
      try {
        designs.add(DesignParser.parse(f.source(), f.text()));
      } catch (DesignException e) {
        errors.add(e.getMessage());
      }
    }
    if (!errors.isEmpty()) {
      throw new PluginInputException(String.join(System.lineSeparator(), errors));
    }
    FidelityOptions o = s.options();
    log.info(String.format(Locale.ROOT, "fidelity on the %s device: %d design%s, %d free runs per SAFE design (jitter"
        + " seed %d, up to %d us)", o.device().name(), designs.size(), designs.size() == 1 ? "" : "s", o.runs(),
        o.seed(), o.jitterMicros()));
    List<DesignOutcome> outcomes = new ArrayList<>();
    for (int i = 0; i < selected.size(); i++) {
      DesignFiles.Selected f = selected.get(i);
      long start = System.nanoTime();
      FidelityReport r;
      try {
        r = Fidelity.compare(designs.get(i), f.source(), o);
      } catch (OutOfMemoryError e) {
        throw new PluginInputException(f.source() + ": out of Java heap: lower maxStates (-Dinterlock.maxStates), or"
            + " give Maven more memory (MAVEN_OPTS=-Xmx8g)");
      }
      DesignOutcome d = new DesignOutcome(f.file(), f.source(), r, (System.nanoTime() - start) / 1e9);
      outcomes.add(d);
      String line = line(d);
      if (r.agrees()) {
        log.info(line);
      } else {
        log.error(line);
      }
    }
    Outcome outcome = new Outcome(outcomes);
    write(s, outcome);
    log.info(String.format(Locale.ROOT, "%d design%s: %d agree, %d disagree; report in %s", outcomes.size(),
        outcomes.size() == 1 ? "" : "s", outcomes.size() - outcome.disagreeing().size(), outcome.disagreeing().size(),
        DesignFiles.shown(s.basedir(), s.outputDirectory().resolve(SUMMARY))));
    return outcome;
  }

  /** The design's log line: path, the model's side, the device's side, agree or DISAGREE, seconds. */
  static String line(DesignOutcome d) {
    FidelityReport r = d.report();
    return String.format(Locale.ROOT, "%s: model %s, device %s, %s, %.3f s", d.source(), r.model().text(),
        r.device().text(), r.agrees() ? "agree" : "DISAGREE", d.seconds());
  }

  /** Replaces the report of an earlier run with {@code outcome}'s, {@code summary.json}. */
  private static void write(FidelitySettings s, Outcome outcome) throws IOException {
    FidelityOptions o = s.options();
    ObjectNode m = JsonTrees.object();
    m.put("device", o.device().name());
    m.put("runs", o.runs());
    m.put("seed", o.seed());
    m.put("jitter_us", o.jitterMicros());
    m.put("max_states", o.maxStates());
    m.put("designs", outcome.designs().size());
    m.put("agree", outcome.designs().size() - outcome.disagreeing().size());
    m.put("disagree", outcome.disagreeing().size());
    ArrayNode results = m.putArray("results");
    for (DesignOutcome d : outcome.designs()) {
      FidelityReport r = d.report();
      ObjectNode x = results.addObject();
      x.put("file", d.source());
      x.put("verdict", r.model().verdict().label());
      x.put("model", r.model().text());
      x.put("model_states", r.model().states());
      x.put("device", r.device().text());
      x.put("agrees", r.agrees());
      x.put("seconds", JsonTrees.seconds(d.seconds()));
    }
    Path out = s.outputDirectory().toAbsolutePath().normalize();
    Files.createDirectories(out);
    Files.writeString(out.resolve(SUMMARY), JsonTrees.write(m) + "\n", StandardCharsets.UTF_8);
  }
}
