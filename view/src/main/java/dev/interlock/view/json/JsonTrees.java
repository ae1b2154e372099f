package dev.interlock.view.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/** Jackson trees written as one compact line, keys in the order they were put: the project's one JSON mapper. */
public final class JsonTrees {
  /** BigDecimals are written plain so that seconds print as 0.000786, never 7.86E-4. */
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .build();

  private JsonTrees() {}

  /** A new empty object. */
  public static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** A new empty array. */
  public static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  /** An object of the given counts, in the map's order. */
  public static ObjectNode counts(Map<String, Integer> counts) {
    ObjectNode o = object();
    counts.forEach(o::put);
    return o;
  }

  /** Seconds to the microsecond, with all six decimals. */
  public static BigDecimal seconds(double seconds) {
    if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
      throw new IllegalArgumentException("JSON has no " + seconds);
    }
    return BigDecimal.valueOf(seconds).setScale(6, RoundingMode.HALF_UP);
  }

  /** {@code node} as one line of JSON. */
  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
