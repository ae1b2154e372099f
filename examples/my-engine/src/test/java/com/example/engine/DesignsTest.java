package com.example.engine;

import dev.interlock.junit.api.DesignFile;
import dev.interlock.junit.api.DesignTest;

/** Every design under src/main/designs meets its {@code # expect:} line: one test per file. */
class DesignsTest {
  @DesignTest("src/main/designs")
  void meetsItsExpectLine(DesignFile design) {
    // the extension checks the file against its expect line; nothing more to assert here
  }
}
