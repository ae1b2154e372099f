package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code on oom} lines after an alloc: what they parse to, the positioned error of every misuse, and the
 * printer's round trip through nested handlers and if blocks; the parser and printer must agree on the block structure,
 * or a handler's steps would silently move to the body.
 */
class OnOomSyntaxTest {
  private static final String HEAD = "design d\nvram 16GiB\nmutex m\n";

  private static Design parse(String text) throws DesignException {
    return DesignParser.parse("t.design", text);
  }

  private static List<Step> body(String lines) throws DesignException {
    return parse(HEAD + "role r\n" + lines).roles().get(0).body();
  }

  @Test
  void ignoreAndHandlerAttachToTheAllocBefore() throws DesignException {
    assertThat(body("  alloc a 4GiB async\n  on oom ignore   # goes on without a\n  free a\n")).containsExactly(
        new Alloc("a", 4 * Sizes.GIB, true, false, OnOom.IGNORE), new Free("a"));
    assertThat(body("  alloc a 4GiB\n  on oom\n    lock m\n    alloc a 4GiB\n    unlock m\n  end\n  free a\n"))
        .containsExactly(new Alloc("a", 4 * Sizes.GIB, false, false, new OnOom.Handle(List.of(
            new Lock("m"), new Alloc("a", 4 * Sizes.GIB, false), new Unlock("m")))), new Free("a"));
    assertThat(body("  alloc k 1GiB keep\n  on oom\n  end\n")).containsExactly(
        new Alloc("k", Sizes.GIB, false, true, new OnOom.Handle(List.of())));
  }

  @Test
  void handlersAndIfBlocksNestBothWays() throws DesignException {
    List<Step> b = body(String.join("\n",
        "  alloc a 4GiB",
        "  on oom",
        "    if free >= 2GiB",
        "      alloc a 2GiB",
        "      on oom ignore",
        "    else",
        "      alloc a 1GiB",
        "      on oom",
        "        trim",
        "      end",
        "    end",
        "  end",
        "  if free < 1GiB",
        "    alloc c 1GiB",
        "    on oom",
        "      sync",
        "    end",
        "  end",
        ""));
    Alloc inner = new Alloc("a", Sizes.GIB, false, false, new OnOom.Handle(List.of(new Trim())));
    Alloc outer = new Alloc("a", 4 * Sizes.GIB, false, false, new OnOom.Handle(List.of(new IfFree(true, 2 * Sizes.GIB,
        List.of(new Alloc("a", 2 * Sizes.GIB, false, false, OnOom.IGNORE)), List.of(inner)))));
    assertThat(b).containsExactly(outer, new IfFree(false, Sizes.GIB,
        List.of(new Alloc("c", Sizes.GIB, false, false, new OnOom.Handle(List.of(new Sync())))), List.of()));
    assertThat(Steps.flatten(b)).hasSize(8);
  }

  @Test
  void handlersInTasksAndAfterTheLastStep() throws DesignException {
    Design d = parse(HEAD + "role r\n  spawn t\n  join t\ntask t\n  alloc x 1GiB async\n  on oom\n  kernel k\n  end\n");
    assertThat(d.tasks().get(0).body()).containsExactly(new Alloc("x", Sizes.GIB, true, false,
        new OnOom.Handle(List.of(new Kernel("k", List.of())))));
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        // not after an alloc line
        Arguments.of("role r\n  on oom ignore\n", "t.design:5:3: 'on oom' must follow an alloc line (it says what the"
            + " job does when that allocation fails)"),
        Arguments.of("role r\n  sync\n  on oom ignore\n", "t.design:6:3: 'on oom' must follow an alloc line (it says what"
            + " the job does when that allocation fails)"),
        Arguments.of("role r\n  if free < 1GiB\n  alloc a 1GiB\n  end\n  on oom ignore\n",
            "t.design:8:3: 'on oom' must follow an alloc line (it says what the job does when that allocation fails)"),
        Arguments.of("role r\n  alloc a 1GiB\n  if free < 1GiB\n  on oom ignore\n  end\n",
            "t.design:7:3: 'on oom' must follow an alloc line (it says what the job does when that allocation fails)"),
        Arguments.of("role r\n  alloc a 1GiB\nrole q\n  on oom ignore\n",
            "t.design:7:3: 'on oom' must follow an alloc line (it says what the job does when that allocation fails)"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  on oom ignore\n  end\n",
            "t.design:7:3: 'on oom' must follow an alloc line (it says what the job does when that allocation fails)"),
        Arguments.of("on oom ignore\n", "t.design:4:1: step 'on' must be indented under a role"),
        // on without oom, or oom with something else
        Arguments.of("role r\n  alloc a 1GiB\n  on\n", "t.design:6:3: on needs oom, e.g. on oom ignore, or on oom and the"
            + " handler's lines and end"),
        Arguments.of("role r\n  alloc a 1GiB\n  on fail\n", "t.design:6:6: unexpected 'fail' after 'on' (expected oom)"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom foo\n", "t.design:6:10: unexpected 'foo' after 'on oom' (expected"
            + " ignore, or nothing and the handler's lines on the next lines, closed by end)"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom ignore now\n", "t.design:6:17: unexpected 'now' after 'on oom ignore'"),
        // a handler has at most one else (its success path)
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  sync\n  else\n  sync\n  else\n  end\n",
            "t.design:10:3: second 'else' for the 'on oom' at line 6 (first 'else' at line 8)"),
        Arguments.of("role r\n  if free < 1GiB\n  alloc a 1GiB\n  on oom\n  else\n  else\n  end\n  end\n",
            "t.design:9:3: second 'else' for the 'on oom' at line 7 (first 'else' at line 8)"),
        // handler without end, end without opener
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  sync\n", "t.design:6:3: 'on oom' without 'end'"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  sync\nrole q\n  sync\n", "t.design:6:3: 'on oom' without 'end'"),
        Arguments.of("role r\n  if free < 1GiB\n  alloc a 1GiB\n  on oom\n  end\n", "t.design:5:3: 'if' without 'end'"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  if free < 1GiB\n  end\n", "t.design:6:3: 'on oom' without 'end'"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  if free < 1GiB\n  sync\n  end\n",
            "t.design:6:3: 'on oom' without 'end'"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  alloc a 1GiB\n  on oom\n  end\n",
            "t.design:6:3: 'on oom' without 'end'"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom ignore\n  end\n", "t.design:7:3: 'end' without 'if', 'choose' or 'on oom'"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  end\n  end\n", "t.design:8:3: 'end' without 'if', 'choose' or 'on oom'"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  end now\n", "t.design:7:7: unexpected 'now' after 'end'"),
        // a second on oom
        Arguments.of("role r\n  alloc a 1GiB\n  on oom ignore\n  on oom ignore\n", "t.design:7:3: second 'on oom' for"
            + " the alloc before the 'on oom' at line 6 (an alloc has one: on oom ignore, or one handler)"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom ignore\n  on oom\n  end\n", "t.design:7:3: second 'on oom' for"
            + " the alloc before the 'on oom' at line 6 (an alloc has one: on oom ignore, or one handler)"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  sync\n  end\n  on oom ignore\n", "t.design:9:3: second"
            + " 'on oom' for the alloc before the 'on oom' at line 6 (an alloc has one: on oom ignore, or one handler)"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  alloc b 1GiB\n  on oom ignore\n  on oom ignore\n  end\n",
            "t.design:9:3: second 'on oom' for the alloc before the 'on oom' at line 8 (an alloc has one: on oom ignore,"
                + " or one handler)"),
        // the handler's steps are checked like any others
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  lock nope\n  end\n", "t.design:7:8: undeclared mutex 'nope'"),
        Arguments.of("role r\n  alloc a 1GiB\n  on oom\n  alloc a\n  end\n", "t.design:7:3: alloc needs a size, e.g. alloc a 12GiB"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void misuseIsAPositionedError(String body, String message) {
    DesignException e = assertThrows(DesignException.class, () -> parse(HEAD + body));
    assertThat(e.getMessage()).isEqualTo(message);
  }

  static Stream<Design> nested() throws DesignException {
    return Stream.of(
        parse(HEAD + "role r x2 jobs 2\n  alloc a 4GiB\n  on oom\n    lock m\n    alloc a 4GiB\n    on oom ignore\n"
            + "    unlock m\n  end\n  kernel k uses a\n  free a\n"),
        parse(HEAD + "role r\n  if free >= 2GiB\n    alloc a 2GiB async\n    on oom\n      if free < 1GiB\n        trim\n"
            + "      else\n        alloc k 1GiB keep\n        on oom\n        end\n      end\n    end\n  end\n"),
        parse(HEAD + "role r\n  spawn t\n  join t\ntask t\n  alloc x 1GiB async\n  on oom\n    alloc y 1GiB\n    on oom\n"
            + "      sync\n    end\n  end\n"));
  }

  @ParameterizedTest
  @MethodSource("nested")
  void nestedHandlersRoundTripThroughThePrinter(Design d) throws DesignException {
    String text = DesignPrinter.print(d);
    assertThat(parse(text)).isEqualTo(d);
    assertThat(DesignPrinter.print(parse(text))).isEqualTo(text);
    assertThat(text).contains("on oom");
  }

  @Test
  void printsTheBlockAtTheBodysIndentation() {
    Design d = new Design("p", 16 * Sizes.GIB, List.of("m"), List.of(), List.of(new dev.interlock.model.design.Role("r",
        1, 1, List.of(new Alloc("a", 4 * Sizes.GIB, true, false, OnOom.IGNORE), new Alloc("b", Sizes.GIB, false, false,
            new OnOom.Handle(List.of(new Lock("m"), new Unlock("m"))))))));
    assertThat(DesignPrinter.print(d)).contains("  alloc a 4GiB async\n  on oom ignore\n  alloc b 1GiB\n  on oom\n"
        + "  lock m\n  unlock m\n  end\n");
  }
}
