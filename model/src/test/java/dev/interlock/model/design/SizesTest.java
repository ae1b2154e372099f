package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class SizesTest {

  @ParameterizedTest
  @CsvSource({
      "12GiB, 12884901888",
      "1.5GiB, 1610612736",
      "512MB, 536870912",
      "512MiB, 536870912",
      "100B, 100",
      "1KB, 1024",
      "2kib, 2048",
      "0.5KiB, 512",
      "16GB, 17179869184"
  })
  void parses(String text, long bytes) {
    Sizes.Parsed p = Sizes.parse(text);
    assertThat(p.error()).isNull();
    assertThat(p.bytes()).contains(bytes);
  }

  @Test
  void decimalUnitsAreBinary() {
    assertThat(Sizes.parse("512MB")).isEqualTo(Sizes.parse("512MiB"));
    assertThat(Sizes.parse("3GB")).isEqualTo(Sizes.parse("3GiB"));
  }

  @Test
  void explainsRejections() {
    assertThat(Sizes.parse("0.3B").error()).isEqualTo("size '0.3B' is not a whole number of bytes");
    assertThat(Sizes.parse("12").error()).isEqualTo("size '12' needs a unit: B, KiB, MiB or GiB");
    assertThat(Sizes.parse("12XB").error()).isEqualTo("bad size unit 'XB' in '12XB': use B, KiB, MiB or GiB");
    assertThat(Sizes.parse("0GiB").error()).isEqualTo("size '0GiB' must be positive");
    assertThat(Sizes.parse("GiB").error()).isEqualTo("bad size 'GiB': expected a number and a unit, e.g. 12GiB");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.3B", "12", "12XB", "0GiB", "", "-1GiB", "1e3B", "1 GiB", ".5GiB", "1.GiB", "9999999999GiB"})
  void rejects(String text) {
    Sizes.Parsed p = Sizes.parse(text);
    assertThat(p.bytes()).isEmpty();
    assertThat(p.error()).isNotBlank();
  }

  @ParameterizedTest
  @ValueSource(strings = {"12GiB", "512MiB", "100B", "1KiB", "1536KiB", "1025B", "3GiB"})
  void formatOfParseIsIdentity(String text) {
    assertThat(Sizes.format(Sizes.parseOrThrow(text))).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({"1.5GiB, 1536MiB", "512MB, 512MiB", "1024MiB, 1GiB", "0.5KiB, 512B", "2048B, 2KiB"})
  void formatPicksTheLargestExactUnit(String text, String canonical) {
    assertThat(Sizes.format(Sizes.parseOrThrow(text))).isEqualTo(canonical);
  }

  @Test
  void parseOfFormatIsIdentity() {
    long[] values = {1, 100, 1023, 1024, 1025, 3L << 29, 12L << 30, (1L << 40) + 1, Long.MAX_VALUE / 4};
    for (long v : values) {
      assertThat(Sizes.parseOrThrow(Sizes.format(v))).isEqualTo(v);
    }
  }
}
