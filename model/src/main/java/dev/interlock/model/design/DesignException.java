package dev.interlock.model.design;

/**
 * A static error in a design file, with the position of the offending token.
 *
 * <p>{@link #getMessage()} is {@code FILE:LINE:COL: message}, ready to print to the user; the
 * parts are available separately through {@link #file()}, {@link #line()}, {@link #column()} and
 * {@link #detail()}.
 */
public final class DesignException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final int column;
  private final String detail;

  /**
   * @param file the file name as the user gave it, e.g. {@code designs/x.design} or {@code <string>}
   * @param line 1-based line
   * @param column 1-based column (in code points; a tab counts as one column)
   * @param detail the message without the position, lower-case
   */
  public DesignException(String file, int line, int column, String detail) {
    super(file + ":" + line + ":" + column + ": " + detail);
    this.file = file;
    this.line = line;
    this.column = column;
    this.detail = detail;
  }

  /** The file name as the user gave it. */
  public String file() {
    return file;
  }

  /** The 1-based line of the error. */
  public int line() {
    return line;
  }

  /** The 1-based column of the error. */
  public int column() {
    return column;
  }

  /** The message without the {@code FILE:LINE:COL: } prefix. */
  public String detail() {
    return detail;
  }
}
