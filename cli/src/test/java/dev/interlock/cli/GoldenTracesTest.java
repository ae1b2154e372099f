package dev.interlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed traces in traces/ are exactly what the checker produces today, by the commands
 * in traces/regenerate.sh; and each replays on the model to its recorded outcome.
 */
class GoldenTracesTest {
  @TempDir
  Path tmp;

  private static List<List<String>> commands() throws IOException {
    List<List<String>> out = new ArrayList<>();
    for (String line : Files.readAllLines(TestDesigns.root().resolve("traces/regenerate.sh"))) {
      String l = line.strip();
      if (l.startsWith("run ./interlock check ")) {
        out.add(Arrays.asList(l.substring("run ./interlock ".length()).split("\\s+")));
      }
    }
    return out;
  }

  @Test
  void regenerateScriptDefinesTheTwoLockCounterexample() throws IOException {
    assertThat(commands()).anySatisfy(c -> assertThat(c).contains("designs/two-lock.design", "traces/two-lock.oom.trace"));
  }

  @TestFactory
  Stream<DynamicTest> checkerStillProducesEachGoldenTrace() throws IOException {
    return commands().stream().map(cmd -> DynamicTest.dynamicTest(String.join(" ", cmd), () -> {
      int at = cmd.indexOf("--trace-out");
      Path golden = TestDesigns.root().resolve(cmd.get(at + 1));
      Path fresh = tmp.resolve(golden.getFileName());
      List<String> args = new ArrayList<>(cmd);
      args.set(at + 1, fresh.toString());
      args.remove("--force");
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int rc = Main.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
      assertThat(rc).as(err.toString()).isIn(0, 1);
      assertThat(Files.readString(fresh))
          .as("%s differs from the checker's output; if the change is intended run traces/regenerate.sh and review git diff", golden)
          .isEqualTo(Files.readString(golden));
    }));
  }

  @TestFactory
  Stream<DynamicTest> eachGoldenTraceReplays() throws IOException {
    try (Stream<Path> files = Files.list(TestDesigns.root().resolve("traces"))) {
      List<Path> traces = files.filter(p -> p.toString().endsWith(".trace")).sorted().toList();
      assertThat(traces).isNotEmpty();
      return traces.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
        Trace t = TraceFormat.read(p);
        assertThat(TraceFormat.parse("again", TraceFormat.print(t))).isEqualTo(t);
        ReplayResult r = Replayer.replay(t, TestDesigns.parse(Files.readString(TestDesigns.root().resolve(t.source()))));
        assertThat(r).isInstanceOf(ReplayResult.Confirmed.class);
      }));
    }
  }
}
