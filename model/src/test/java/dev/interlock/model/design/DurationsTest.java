package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @Test
  void parses() {
    assertThat(Durations.parse("0.5s").duration()).contains(Duration.ofMillis(500));
    assertThat(Durations.parse("120ms").duration()).contains(Duration.ofMillis(120));
    assertThat(Durations.parse("40us").duration()).contains(Duration.ofNanos(40_000));
    assertThat(Durations.parse("7ns").duration()).contains(Duration.ofNanos(7));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0s", "0.5ns", "5m", "1", "s", "-1s", "1.5", "99999999999999999999s"})
  void rejects(String text) {
    Durations.Parsed p = Durations.parse(text);
    assertThat(p.duration()).isEmpty();
    assertThat(p.error()).isNotBlank();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1s", "500ms", "40us", "7ns", "1500001us", "3s"})
  void formatOfParseIsIdentity(String text) {
    assertThat(Durations.format(Durations.parse(text).duration().orElseThrow())).isEqualTo(text);
  }
}
