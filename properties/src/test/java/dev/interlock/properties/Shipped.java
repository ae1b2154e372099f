package dev.interlock.properties;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import java.nio.file.Path;

/** The shipped designs, read from designs/ at the repository root (the tests' working directory). */
final class Shipped {
  private Shipped() {}

  static String path(String name) {
    return "designs/" + name + ".design";
  }

  static Design design(String name) {
    try {
      return DesignParser.parse(Path.of(path(name)));
    } catch (DesignException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
