package dev.interlock.junit.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The guide's Java code is the example project's: each {@code java} block of docs/use-in-your-build.md starts with
 * {@code // PATH} and is that file of examples/my-engine, which the build compiles and tests.
 */
class DocsExamplesTest {
  private static final Path GUIDE = Path.of("docs/use-in-your-build.md");
  private static final Path EXAMPLE = Path.of("examples/my-engine");
  private static final Pattern BLOCK = Pattern.compile("```java\\n// (\\S+)\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everyJavaBlockOfTheGuideIsAFileOfTheExampleProject() throws Exception {
    String guide = Files.readString(GUIDE);
    Matcher m = BLOCK.matcher(guide);
    List<String> shown = new ArrayList<>();
    while (m.find()) {
      Path file = EXAMPLE.resolve(m.group(1));
      assertThat(file).as("the guide shows %s", m.group(1)).isRegularFile();
      assertThat(m.group(2)).as("the guide's copy of %s", file).isEqualTo(Files.readString(file));
      shown.add(m.group(1));
    }
    assertThat(shown).as("the guide's three tests and the pipeline").hasSize(4);
    assertThat(guide).contains(Files.readString(EXAMPLE.resolve("pom.xml")));
  }
}
