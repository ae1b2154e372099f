package dev.interlock.properties;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.DesignPrinter;
import dev.interlock.model.state.Model;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceFormatException;
import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.PropertyRunner;
import dev.interlock.properties.engine.Source;
import dev.interlock.properties.model.DesignGen;
import dev.interlock.properties.model.Schedule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The design and trace formats read back what they write, and bad text only ever gets the documented error. */
class RoundTripProperties {

  @Test
  void tracePrintThenParseIsTheIdentity() {
    Gen<Trace> traces = DesignGen.designs().flatMap(d -> Schedule.of(new Model(d), "designs/random.design")).map(Schedule::trace);
    PropertyRunner.assertHolds("parse(print(trace)) == trace", traces, t -> {
      try {
        return TraceFormat.parse("<printed>", TraceFormat.print(t)).equals(t);
      } catch (TraceFormatException e) {
        throw new AssertionError(e.getMessage(), e);
      }
    });
  }

  @Test
  void designPrintThenParseIsTheIdentity() {
    PropertyRunner.assertHolds("parse(print(design)) == design", DesignGen.designs(), d -> {
      try {
        return DesignParser.parse("<printed>", DesignPrinter.print(d)).equals(d);
      } catch (DesignException e) {
        throw new AssertionError(e.getMessage(), e);
      }
    });
  }

  private static final List<String> NOISE = List.of(" ", "\t", "#", "x", "0", "-", "=", "\n", "\n  ", "é", "\u0000",
      "GiB", "lock", "role", "jobs", "async", "uses", "for", "99999999999", "1.5", "x0");

  /** Printed random designs with 1-4 random edits: deleted, inserted or duplicated text. */
  private static Gen<String> mangled() {
    return DesignGen.designs().map(DesignPrinter::print).flatMap(text -> src -> mangle(src, text));
  }

  private static String mangle(Source src, String text) {
    StringBuilder sb = new StringBuilder(text);
    int edits = 1 + src.choose(3);
    for (int i = 0; i < edits; i++) {
      int at = src.choose(Math.max(0, sb.length() - 1));
      switch (src.choose(3)) {
        case 0 -> sb.deleteCharAt(Math.min(at, sb.length() - 1));
        case 1 -> sb.insert(at, NOISE.get(src.choose(NOISE.size() - 1)));
        case 2 -> sb.setLength(at);
        default -> {
          int end = Math.min(sb.length(), at + 1 + src.choose(20));
          sb.insert(at, sb.substring(at, end));
        }
      }
      if (sb.length() == 0) {
        break;
      }
    }
    return sb.toString();
  }

  @Test
  void malformedDesignTextGetsOnlyThePositionedError() {
    PropertyRunner.assertHolds("bad design text gives FILE:LINE:COL: message", mangled(), text -> {
      try {
        Design d = DesignParser.parse("bad.design", text);
        return DesignParser.parse("again", DesignPrinter.print(d)).equals(d);
      } catch (DesignException e) {
        assertThat(e.getMessage()).matches("bad\\.design:[1-9][0-9]*:[1-9][0-9]*: \\S.*").doesNotContain("\n");
        assertThat(e.line()).isBetween(1, (int) text.lines().count() + 1);
        return true;
      }
    }, dev.interlock.properties.engine.Config.defaults("bad design text gives FILE:LINE:COL: message").withTries(2000));
  }
}
