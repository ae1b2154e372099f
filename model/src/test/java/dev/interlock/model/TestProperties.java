package dev.interlock.model;

/** System properties for tests: set for the length of one check, then put back as they were. */
public final class TestProperties {
  private TestProperties() {}

  /** Runs check with the system property key set to value, then restores its earlier value (or clears it). */
  public static void withProperty(String key, String value, Runnable check) {
    String before = System.getProperty(key);
    System.setProperty(key, value);
    try {
      check.run();
    } finally {
      if (before == null) {
        System.clearProperty(key);
      } else {
        System.setProperty(key, before);
      }
    }
  }
}
