package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.properties.fuzz.Fuzzer;
import dev.interlock.properties.fuzz.Mutations;
import dev.interlock.properties.fuzz.Reader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The capture reader and the mapping file reader on inputs mutated from the H200 captures and from mapping files:
 * a value or the positioned error, nothing else ({@code -Dinterlock.fuzz.count=100000} for the benchmark mode,
 * bench/fuzz.sh).
 */
class CaptureFuzzProperties {
  static final Reader CAPTURE = new Reader("capture reader", "fuzz.capture", CaptureFormat::parse, CaptureFormatException.class);
  static final Reader MAPPING = new Reader("mapping reader", "fuzz.map", Mapping::parse, CaptureFormatException.class);

  /** Mapping files with every directive, as docs/capture-format.md shows them. */
  static final List<Mutations.Seed> MAPPINGS = List.of(
      new Mutations.Seed("full.map", """
          # unnamed mutexes: the capture's object = the design's mutex or semaphore
          mutex@0x7f3a2c001040 = compute_mtx
          sem@0x7f3a2c0010a0 = vram_units
          thread 31337 = gpu_worker
          thread 31338 = gpu_worker#1
          ignore alloc 128GiB
          ignore alloc 4194304
          ignore thread main
          ignore thread 4242
          group staged = 4GiB 4GiB 4GiB
          group bases = 1.5GiB 512MiB
          tolerance 2MiB
          tolerance 1%
          """),
      new Mutations.Seed("small.map", "mutex@0x10 = compute_mtx  # the big one\nthread 4001 = gpu_worker#1\nignore alloc 1GiB\ntolerance 1%\n"));

  @Test
  void captureReaderGivesACaptureOrThePositionedError() throws IOException {
    List<Mutations.Seed> seeds = Fuzzer.seeds(Path.of("observe/src/test/resources/h200"), ".capture");
    assertThat(seeds).hasSizeGreaterThanOrEqualTo(5);
    Fuzzer.Stats s = Fuzzer.check(CAPTURE, Mutations.of(seeds), Fuzzer.count());
    assertThat(s.tried()).isGreaterThanOrEqualTo(Fuzzer.count());
    assertThat(s.rejected()).as("mutants the reader rejects").isPositive();
  }

  @Test
  void mappingReaderGivesAMappingOrThePositionedError() {
    Fuzzer.Stats s = Fuzzer.check(MAPPING, Mutations.of(MAPPINGS), Fuzzer.count());
    assertThat(s.tried()).isGreaterThanOrEqualTo(Fuzzer.count());
    assertThat(s.rejected()).as("mutants the reader rejects").isPositive();
  }

  @Test
  void crashesFoundOnceStayFixed() throws IOException {
    Fuzzer.regressions(CAPTURE, Path.of("observe/src/test/resources/fuzz-regressions/capture"));
    int mappings = Fuzzer.regressions(MAPPING, Path.of("observe/src/test/resources/fuzz-regressions/mapping"));
    assertThat(mappings).as("mapping cases (a size past Long.MAX_VALUE threw NumberFormatException)").isPositive();
  }

  @Test
  void sizesPastALongAndANanPercentageArePositionedErrors() {
    assertThatThrownBy(() -> Mapping.parse("m.map", "ignore alloc 9223372036854775808\n"))
        .hasMessage("m.map:1:14: size '9223372036854775808' is too large (at most 9223372036854775807 bytes)");
    assertThatThrownBy(() -> Mapping.parse("m.map", "tolerance NaN%\n"))
        .hasMessage("m.map:1:11: a tolerance percentage is in [0, 100), got NaN%");
  }
}
