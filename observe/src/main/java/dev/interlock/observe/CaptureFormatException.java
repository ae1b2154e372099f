package dev.interlock.observe;

/** Bad input in a capture or mapping file; the message is {@code FILE:LINE:COL: what is wrong}. */
public final class CaptureFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  public CaptureFormatException(String file, int line, int column, String message) {
    super(file + ":" + line + ":" + column + ": " + oneLine(message));
  }

  /** The message with control characters (a CR or NUL quoted from the input) escaped (backslash, u, four hex digits): one line. */
  private static String oneLine(String message) {
    StringBuilder sb = new StringBuilder(message.length());
    message.codePoints().forEach(c -> {
      if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029) {
        sb.append(String.format("\\u%04x", c));
      } else {
        sb.appendCodePoint(c);
      }
    });
    return sb.toString();
  }
}
