package dev.interlock.model.trace;

/** A trace file that cannot be read, with the position of the problem: {@code FILE:LINE:COL: message}. */
public final class TraceFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final int column;
  private final String reason;

  public TraceFormatException(String file, int line, int column, String reason) {
    super(file + ":" + line + ":" + column + ": " + reason);
    this.file = file;
    this.line = line;
    this.column = column;
    this.reason = reason;
  }

  public String file() {
    return file;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  public String reason() {
    return reason;
  }
}
