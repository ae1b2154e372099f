package dev.interlock.junit.api;

import dev.interlock.model.design.DesignException;
import dev.interlock.model.expect.DesignExpectations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;

/** The extension behind {@link DesignTest}: one invocation per matching design file, each checked before it runs. */
final class DesignTestExtension implements TestTemplateInvocationContextProvider {
  @Override
  public boolean supportsTestTemplate(ExtensionContext context) {
    return context.getTestMethod().flatMap(m -> AnnotationSupport.findAnnotation(m, DesignTest.class)).isPresent();
  }

  @Override
  public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
    Method method = context.getRequiredTestMethod();
    DesignTest a = AnnotationSupport.findAnnotation(method, DesignTest.class).orElseThrow();
    if (a.maxStates() < 1) {
      throw new ExtensionConfigurationException("@DesignTest maxStates must be positive, got " + a.maxStates());
    }
    List<Path> files = files(a);
    return files.stream().map(f -> new Invocation(f, a.maxStates()));
  }

  /** The design files of {@code a}, in path order; never empty. */
  static List<Path> files(DesignTest a) {
    Path dir = Path.of(a.value());
    if (!Files.isDirectory(dir)) {
      throw new ExtensionConfigurationException("@DesignTest(\"" + a.value() + "\"): no such directory (from the"
          + " working directory " + Path.of("").toAbsolutePath() + ")");
    }
    List<PathMatcher> includes = matchers(a.includes());
    List<PathMatcher> excludes = matchers(a.excludes());
    List<Path> out = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(Files::isRegularFile).sorted().forEach(f -> {
        Path rel = dir.relativize(f);
        if (includes.stream().anyMatch(m -> m.matches(rel)) && excludes.stream().noneMatch(m -> m.matches(rel))) {
          out.add(f);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("@DesignTest(\"" + a.value() + "\"): cannot list the directory", e);
    } catch (UncheckedIOException e) {
      throw new UncheckedIOException("@DesignTest(\"" + a.value() + "\"): cannot list the directory", e.getCause());
    }
    if (out.isEmpty()) {
      throw new ExtensionConfigurationException("@DesignTest(\"" + a.value() + "\"): no design file matches includes "
          + Arrays.toString(a.includes()) + " and excludes " + Arrays.toString(a.excludes()));
    }
    return out;
  }

  /** Glob matchers of {@code patterns}; one starting with {@code **}{@code /} also matches without that prefix. */
  private static List<PathMatcher> matchers(String[] patterns) {
    List<PathMatcher> out = new ArrayList<>();
    for (String p : patterns) {
      try {
        out.add(FileSystems.getDefault().getPathMatcher("glob:" + p));
        if (p.startsWith("**/")) {
          out.add(FileSystems.getDefault().getPathMatcher("glob:" + p.substring(3)));
        }
      } catch (IllegalArgumentException e) {
        throw new ExtensionConfigurationException("@DesignTest: bad pattern '" + p + "': " + e.getMessage());
      }
    }
    return out;
  }

  /** Checks {@code file} against its expect line; fails with the positioned error, or the mismatches and the report. */
  static DesignFile check(Path file, long maxStates) {
    DesignCheck check;
    DesignExpectations.Result r;
    try {
      check = Interlock.check(file).maxStates(maxStates);
      r = check.runAgainstExpectation();
    } catch (IllegalArgumentException e) {
      throw new AssertionError(e.getMessage());
    } catch (DesignException e) {
      throw new AssertionError(e.getMessage());
    }
    CheckResult result = new CheckResult(check, r.report(), Optional.empty());
    String expected = r.expectation().text();
    if (!r.met()) {
      throw new AssertionError(CheckResultAssert.message(result, file + ": expected " + expected
          + (r.expectation().written() ? " (the expect line, line " + r.expectation().line() + ")" : " (no expect line)")
          + ", got " + result.verdict() + ":\n  " + String.join("\n  ", r.mismatches())));
    }
    return new DesignFile(file, expected, r.expectation().written(), result, r.mismatches());
  }

  /** One file's invocation: named by its path, checked before the method runs, which may take it as a parameter. */
  private static final class Invocation implements TestTemplateInvocationContext, BeforeTestExecutionCallback,
      ParameterResolver {
    private final Path file;
    private final long maxStates;
    private DesignFile checked;

    Invocation(Path file, long maxStates) {
      this.file = file;
      this.maxStates = maxStates;
    }

    @Override
    public String getDisplayName(int invocationIndex) {
      return file.toString();
    }

    @Override
    public List<Extension> getAdditionalExtensions() {
      return List.of(this);
    }

    @Override
    public void beforeTestExecution(ExtensionContext context) {
      checked();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == DesignFile.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return checked();
    }

    private synchronized DesignFile checked() {
      if (checked == null) {
        checked = check(file, maxStates);
      }
      return checked;
    }
  }
}
