package dev.interlock.impl.fault;

/**
 * A fault spec that does not parse: which option, which item (1-based, with its text and column), what is wrong.
 *
 * <p>Why its own type: the CLI reports it as one positioned line with exit status 2, never as a stack trace.
 */
public final class FaultSpecException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int item;
  private final int column;

  FaultSpecException(String option, String spec, int item, int column, String itemText, String what) {
    super(option + " '" + spec + "': item " + item + " '" + itemText + "' (column " + column + "): " + what);
    this.item = item;
    this.column = column;
  }

  /** The 1-based index of the bad item. */
  public int item() {
    return item;
  }

  /** The 1-based column in the spec where the problem is. */
  public int column() {
    return column;
  }
}
