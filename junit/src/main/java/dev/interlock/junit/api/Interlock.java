package dev.interlock.junit.api;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Where a check starts: {@code Interlock.check(design)} parses a design and returns the {@link DesignCheck} that
 * configures and runs its exhaustive check.
 *
 * <pre>{@code
 * CheckResult r = Interlock.check(Path.of("src/test/designs/two-lock.design")).vram("24GiB").run();
 * InterlockAssertions.assertThat(r).isSafe();
 * }</pre>
 *
 * <p>A design with errors is an {@link IllegalArgumentException} whose message is the positioned error,
 * {@code FILE:LINE:COL: message}.
 */
public final class Interlock {
  /** The name errors and traces give a design passed as text without one. */
  public static final String STRING_SOURCE = "<string>";

  private Interlock() {}

  /**
   * The check of the design file {@code design}; errors and traces name it as given.
   *
   * @throws IllegalArgumentException when the file cannot be read or has errors (the message is the positioned error)
   */
  public static DesignCheck check(Path design) {
    return fromFile(design, DesignCheck::of);
  }

  /** {@code of} applied to the file's name as given and its text, once the parser has read the file without errors. */
  private static <T> T fromFile(Path design, BiFunction<String, String, T> of) {
    Objects.requireNonNull(design, "design");
    String source = design.toString();
    try {
      DesignParser.parse(design); // the parser's own positioned errors for a file it cannot read
      return of.apply(source, Files.readString(design, StandardCharsets.UTF_8));
    } catch (DesignException e) {
      throw new IllegalArgumentException(e.getMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException(source + ":1:1: cannot read file: " + e.getMessage());
    }
  }

  /**
   * The check of a design given as text, named {@value #STRING_SOURCE} in errors and traces.
   *
   * @throws IllegalArgumentException when the design has errors (the message is the positioned error)
   */
  public static DesignCheck check(String designText) {
    return check(STRING_SOURCE, designText);
  }

  /**
   * The check of a design given as text, named {@code sourceName} in errors and traces (e.g. the file it came from).
   *
   * @throws IllegalArgumentException when the design has errors (the message is the positioned error)
   */
  public static DesignCheck check(String sourceName, String designText) {
    Objects.requireNonNull(sourceName, "sourceName");
    Objects.requireNonNull(designText, "designText");
    return DesignCheck.of(sourceName, designText);
  }

  /**
   * The fidelity comparison of the design file {@code design}: does the device do what the model says? Errors and
   * reports name the file as given.
   *
   * @throws IllegalArgumentException when the file cannot be read or has errors (the message is the positioned error)
   */
  public static DesignFidelity fidelity(Path design) {
    return fromFile(design, DesignFidelity::of);
  }

  /**
   * The fidelity comparison of a design given as text, named {@value #STRING_SOURCE}.
   *
   * @throws IllegalArgumentException when the design has errors (the message is the positioned error)
   */
  public static DesignFidelity fidelity(String designText) {
    return fidelity(STRING_SOURCE, designText);
  }

  /**
   * The fidelity comparison of a design given as text, named {@code sourceName}.
   *
   * @throws IllegalArgumentException when the design has errors (the message is the positioned error)
   */
  public static DesignFidelity fidelity(String sourceName, String designText) {
    Objects.requireNonNull(sourceName, "sourceName");
    Objects.requireNonNull(designText, "designText");
    return DesignFidelity.of(sourceName, designText);
  }

  /** Parses {@code text}; a design error becomes the API's {@link IllegalArgumentException}. */
  static Design parse(String source, String text) {
    try {
      return DesignParser.parse(source, text);
    } catch (DesignException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }
}
