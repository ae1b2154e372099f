package dev.interlock.view.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared JSON of a check report: keys in the documented order, the trace's steps, the search settings. */
class CheckReportJsonTest {
  private static CheckReport check(String file, Checker.Options options) throws Exception {
    Design d = DesignParser.parse(file, Files.readString(Path.of(file)));
    return Checker.check(d, file, options);
  }

  private static List<String> keys(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void anOomReportHasItsCounterexampleAndTheKeysInOrder() throws Exception {
    CheckReport r = check("designs/two-lock.design", Checker.Options.defaults(1_000_000));
    ObjectNode m = CheckReportJson.of(r, new CheckReportJson.Search(true, 3, false));
    assertThat(keys(m)).containsExactly("design", "verdict", "searched_transitions", "threads", "searched_states",
        "seconds", "overlap", "message", "length", "trace", "others", "others_complete", "partial_order_reduction",
        "reduced_search", "search_threads", "state_store_peak_bytes", "limit");
    assertThat(m.get("verdict").asText()).isEqualTo("OOM");
    assertThat(m.get("threads").get("gpu_worker").asInt()).isEqualTo(2);
    assertThat(m.get("length").asInt()).isEqualTo(9).isEqualTo(m.get("trace").size());
    assertThat(m.get("trace").get(0).get("i").asInt()).isEqualTo(1);
    assertThat(m.get("search_threads").asInt()).isEqualTo(3);
    assertThat(m.get("limit").isNull()).isTrue();
    assertThat(JsonTrees.write(m)).startsWith("{\"design\":\"two-lock\",\"verdict\":\"OOM\",").doesNotContain("\n");
  }

  /** A swallowed failure's job going on: the steps after the violation, the kernel that ran without its buffer. */
  @Test
  void aSwallowedOomReportHasTheStepsAfterItsViolation() throws Exception {
    CheckReport r = check("designs/cuzk/phase9.design", Checker.Options.defaults(1_000_000));
    ObjectNode m = CheckReportJson.of(r, CheckReportJson.Search.of(Checker.Options.defaults(1_000_000)));
    assertThat(m.get("verdict").asText()).isEqualTo("SWALLOWED_OOM");
    assertThat(m.get("length").asInt()).isEqualTo(14).isEqualTo(m.get("trace").size());
    assertThat(keys(m).get(keys(m).size() - 1)).isEqualTo("after");
    JsonNode first = m.get("after").get(0);
    assertThat(first.get("i").asInt()).isEqualTo(15);
    assertThat(first.get("step").asText()).isEqualTo("kernel ntt_msm uses d_a h_buckets h_temp");
    assertThat(first.get("without").toString()).isEqualTo("[\"h_temp\"]");
    assertThat(m.get("after").get(1).has("without")).isFalse();
    assertThat(m.get("trace").get(0).has("without")).isFalse();
  }

  @Test
  void aLimitedSearchSaysWhichLimitAndShowsNoTrace() throws Exception {
    CheckReport r = check("designs/two-lock.design", Checker.Options.defaults(3));
    ObjectNode m = CheckReportJson.of(r, CheckReportJson.Search.of(Checker.Options.defaults(3)));
    assertThat(m.get("verdict").asText()).isEqualTo("LIMIT");
    assertThat(m.get("limit").asText()).isEqualTo("max_states");
    assertThat(m.get("length").asInt()).isZero();
    assertThat(m.get("trace").size()).isZero();
    assertThat(m.get("message").isNull()).isTrue();
  }
}
