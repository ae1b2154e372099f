package dev.interlock.junit.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One test per design file under a directory, each checked against its {@code # expect:} line (SAFE where it has
 * none). Put it on a test method, which may be empty or take a {@link DesignFile} for further assertions:
 *
 * <pre>{@code
 * @DesignTest("src/test/designs")
 * void designsMeetTheirExpectations() {}
 * }</pre>
 *
 * <p>Each invocation is named by the file's path and fails with the verdict, how it differs from the expectation,
 * the counterexample trace and the file of its HTML view; a malformed design or expect line fails its invocation with
 * the positioned error. A directory without a matching file fails, so that a mistyped path cannot pass.
 */
@Documented
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@TestTemplate
@ExtendWith(DesignTestExtension.class)
public @interface DesignTest {
  /** The directory of the design files, relative to the working directory (a module's own directory under Maven). */
  String value();

  /**
   * Glob patterns ({@link java.nio.file.FileSystem#getPathMatcher}) of the files to check, relative to the directory,
   * with {@code /} between names; a leading {@code **}{@code /} also matches files directly in the directory.
   */
  String[] includes() default {"**/*.design"};

  /** Glob patterns of files to leave out, as {@link #includes()}. */
  String[] excludes() default {};

  /** The state limit of each search; a check it stops answers LIMIT, which meets no expectation. */
  long maxStates() default DesignCheck.DEFAULT_MAX_STATES;
}
