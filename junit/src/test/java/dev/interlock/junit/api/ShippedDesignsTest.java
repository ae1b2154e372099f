package dev.interlock.junit.api;

/** Every shipped design under designs/ meets its {@code # expect:} line, checked by {@link DesignTest} as users check theirs. */
class ShippedDesignsTest {
  /**
   * designs/cuzk/head.design is left out: its exhaustive check searches about 61 million states (512 s with a 15 GiB
   * heap), too long for a build; {@code interlock fidelity --model-only} covers it.
   */
  @DesignTest(value = "designs", excludes = "cuzk/head.design")
  void meetsItsExpectLine(DesignFile file) {
    // the template checked the file against its expect line before this runs; every shipped design has one
    org.assertj.core.api.Assertions.assertThat(file.hasExpectLine()).as(file.toString()).isTrue();
  }
}
