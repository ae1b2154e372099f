package dev.interlock.model.design;

import dev.interlock.model.step.Step;

/**
 * Prints a {@link Design} in the canonical form of the design language.
 *
 * <p>{@code DesignParser.parse(name, print(d)).equals(d)} for every design whose sizes
 * {@link Sizes#parse} accepts. The form: {@code design}, {@code vram}, the mutexes, the semaphores,
 * then each role as {@code role NAME xT jobs J} after a blank line, with its steps indented by two
 * spaces; no comments; a newline after every line.
 */
public final class DesignPrinter {
  private DesignPrinter() {}

  /** The canonical text of {@code d}. */
  public static String print(Design d) {
    StringBuilder sb = new StringBuilder();
    sb.append("design ").append(d.name()).append('\n');
    sb.append("vram ").append(Sizes.format(d.vram())).append('\n');
    for (String m : d.mutexes()) {
      sb.append("mutex ").append(m).append('\n');
    }
    for (Semaphore s : d.semaphores()) {
      sb.append("semaphore ").append(s.name()).append(' ').append(s.permits()).append('\n');
    }
    for (Role r : d.roles()) {
      sb.append('\n');
      sb.append("role ").append(r.name())
          .append(" x").append(r.threads())
          .append(" jobs ").append(r.jobs()).append('\n');
      for (Step s : r.body()) {
        sb.append("  ").append(s.text()).append('\n');
      }
    }
    return sb.toString();
  }
}
