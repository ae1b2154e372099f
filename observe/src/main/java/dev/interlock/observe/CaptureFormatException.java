package dev.interlock.observe;

/** Bad input in a capture or mapping file; the message is {@code FILE:LINE:COL: what is wrong}. */
public final class CaptureFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  public CaptureFormatException(String file, int line, int column, String message) {
    super(file + ":" + line + ":" + column + ": " + message);
  }
}
