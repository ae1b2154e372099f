package dev.interlock.maven;

/** Bad input to the plugin (a malformed design, a missing directory, a bad parameter): its message is the whole story. */
public final class PluginInputException extends Exception {
  private static final long serialVersionUID = 1L;

  /** {@code message} is shown to the user as is: {@code FILE:LINE:COL: message} where there is a position. */
  public PluginInputException(String message) {
    super(message);
  }
}
