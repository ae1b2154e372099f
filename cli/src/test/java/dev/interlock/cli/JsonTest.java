package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CLI's JSON writing: key order, seconds with six plain decimals, escapes. */
class JsonTest {
  @Test
  void keysKeepTheOrderTheyWerePutIn() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("z", 1);
    counts.put("a", 2);
    var o = Json.object().put("b", "x").put("a", (String) null);
    o.set("counts", Json.counts(counts));
    o.set("none", Json.array());
    assertThat(Json.write(o)).isEqualTo("{\"b\":\"x\",\"a\":null,\"counts\":{\"z\":1,\"a\":2},\"none\":[]}");
  }

  @Test
  void secondsHaveSixPlainDecimals() {
    assertThat(Json.write(Json.array().add(Json.seconds(0.000786)).add(Json.seconds(0)).add(Json.seconds(12.5))
        .add(Json.seconds(0.0350884)).add(Json.seconds(1e-9))))
        .isEqualTo("[0.000786,0.000000,12.500000,0.035088,0.000000]");
    assertThatThrownBy(() -> Json.seconds(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Json.seconds(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void errorEscapesQuotesBackslashesAndControlCharacters() {
    assertThat(Json.error("a\"b\\c\td\ne\u0001")).isEqualTo("{\"error\":\"a\\\"b\\\\c\\td\\ne\\u0001\"}");
  }
}
