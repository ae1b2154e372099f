package dev.interlock.junit.api;

/**
 * Every shipped design under designs/ (cuzk's head included) meets its {@code # expect:} line, checked by
 * {@link DesignTest} with the default limits as users check theirs: so the default check of each finishes with a verdict.
 */
class ShippedDesignsTest {
  @DesignTest("designs")
  void meetsItsExpectLine(DesignFile file) {
    // the template checked the file against its expect line before this runs; every shipped design has one
    org.assertj.core.api.Assertions.assertThat(file.hasExpectLine()).as(file.toString()).isTrue();
  }
}
