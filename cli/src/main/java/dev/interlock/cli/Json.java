package dev.interlock.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.view.json.JsonTrees;
import java.math.BigDecimal;
import java.util.Map;

/** The CLI's JSON output: {@link JsonTrees} (one compact line, keys in the order put) and the error object. */
final class Json {
  private Json() {}

  static ObjectNode object() {
    return JsonTrees.object();
  }

  static ArrayNode array() {
    return JsonTrees.array();
  }

  /** An object of the given counts, in the map's order. */
  static ObjectNode counts(Map<String, Integer> counts) {
    return JsonTrees.counts(counts);
  }

  /** Seconds to the microsecond, with all six decimals. */
  static BigDecimal seconds(double seconds) {
    return JsonTrees.seconds(seconds);
  }

  /** {@code {"error": message}}: how bad input is reported under --json. */
  static String error(String message) {
    return write(object().put("error", message));
  }

  static String write(JsonNode node) {
    return JsonTrees.write(node);
  }
}
