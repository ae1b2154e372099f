package dev.interlock.maven;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Includes and excludes as Maven users write them. */
class AntPatternTest {
  @Test
  void doubleStarMatchesAnyDirectoriesAlsoNone() {
    AntPattern p = AntPattern.of("**/*.design");
    assertThat(p.matches("a.design")).isTrue();
    assertThat(p.matches("x/y/a.design")).isTrue();
    assertThat(p.matches("a.design.bak")).isFalse();
    assertThat(p.matches("x/a.designs")).isFalse();
  }

  @Test
  void singleStarAndQuestionMarkStayInOneName() {
    assertThat(AntPattern.of("*.design").matches("x/a.design")).isFalse();
    assertThat(AntPattern.of("x/?.design").matches("x/a.design")).isTrue();
    assertThat(AntPattern.of("x/?.design").matches("x/ab.design")).isFalse();
    assertThat(AntPattern.of("x/**/a.design").matches("x/a.design")).isTrue();
    assertThat(AntPattern.of("x/**/a.design").matches("x/y/z/a.design")).isTrue();
  }

  @Test
  void aTrailingSlashMeansEverythingUnderIt() {
    assertThat(AntPattern.of("wip/").matches("wip/a.design")).isTrue();
    assertThat(AntPattern.of("wip/").matches("wip/deep/a.design")).isTrue();
    assertThat(AntPattern.of("wip/").matches("wipe/a.design")).isFalse();
  }

  @Test
  void otherCharactersAreLiteral() {
    assertThat(AntPattern.of("a+b(1).design").matches("a+b(1).design")).isTrue();
    assertThat(AntPattern.of("a.design").matches("aXdesign")).isFalse();
  }
}
