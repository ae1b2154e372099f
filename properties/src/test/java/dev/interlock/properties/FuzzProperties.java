package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceFormatException;
import dev.interlock.properties.fuzz.Fuzzer;
import dev.interlock.properties.fuzz.Mutations;
import dev.interlock.properties.fuzz.Reader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The design parser and the trace reader on inputs mutated from the shipped designs and traces: a value or the
 * positioned error, nothing else ({@code -Dinterlock.fuzz.count=100000} for the benchmark mode, bench/fuzz.sh).
 */
class FuzzProperties {
  static final Reader DESIGN = new Reader("design parser", "fuzz.design", DesignParser::parse, DesignException.class);
  static final Reader TRACE = new Reader("trace reader", "fuzz.trace", TraceFormat::parse, TraceFormatException.class);

  static List<Mutations.Seed> designs() throws IOException {
    List<Mutations.Seed> seeds = new ArrayList<>(Fuzzer.seeds(Path.of("designs"), ".design"));
    assertThat(seeds).hasSizeGreaterThanOrEqualTo(10);
    return seeds;
  }

  static List<Mutations.Seed> traces() throws IOException {
    List<Mutations.Seed> seeds = Fuzzer.seeds(Path.of("traces"), ".trace");
    assertThat(seeds).hasSizeGreaterThanOrEqualTo(5);
    return seeds;
  }

  @Test
  void designParserGivesADesignOrThePositionedError() throws IOException {
    Fuzzer.Stats s = Fuzzer.check(DESIGN, Mutations.of(designs()), Fuzzer.count());
    assertThat(s.tried()).isGreaterThanOrEqualTo(Fuzzer.count());
    assertThat(s.rejected()).as("mutants the parser rejects").isPositive();
  }

  @Test
  void traceReaderGivesATraceOrThePositionedError() throws IOException {
    Fuzzer.Stats s = Fuzzer.check(TRACE, Mutations.of(traces()), Fuzzer.count());
    assertThat(s.tried()).isGreaterThanOrEqualTo(Fuzzer.count());
    assertThat(s.rejected()).as("mutants the reader rejects").isPositive();
  }

  @Test
  void crashesFoundOnceStayFixed() throws IOException {
    int designs = Fuzzer.regressions(DESIGN, Path.of("properties/src/test/resources/fuzz-regressions/design"));
    int traces = Fuzzer.regressions(TRACE, Path.of("properties/src/test/resources/fuzz-regressions/trace"));
    System.out.println("[fuzz] regression cases: " + designs + " designs, " + traces + " traces");
  }

  @Test
  void aReaderThatCrashesIsCaughtAndShrunk() throws IOException {
    Reader crashy = new Reader("crashy", "fuzz.design", (f, t) -> t.contains("\t") ? t.charAt(-1) : DesignParser.parse(f, t),
        DesignException.class);
    AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
        () -> Fuzzer.check(crashy, Mutations.of(designs()), Fuzzer.DEFAULT_COUNT));
    assertThat(e.getMessage()).contains("StringIndexOutOfBoundsException").contains("Reproduce with -Dinterlock.seed=");
  }
}
