package dev.interlock.cli;

/** Bad input or an exhausted resource: reported as one line, exit status 2. */
final class CliError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CliError(String message) {
    super(message);
  }
}
