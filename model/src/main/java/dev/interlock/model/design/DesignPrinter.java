package dev.interlock.model.design;

import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import java.util.List;

/**
 * Prints a {@link Design} in the canonical form of the design language.
 *
 * <p>{@code DesignParser.parse(name, print(d)).equals(d)} for every design whose sizes
 * {@link Sizes#parse} accepts (and whose pool threshold is 0, such a size or
 * {@link Design#THRESHOLD_MAX}). The form: {@code design}, {@code vram}, {@code pool threshold}
 * when it is not 0, the device buffers, the mutexes, the semaphores, then each role as
 * {@code role NAME xT jobs J} and then each task as {@code task NAME}, each after a blank line and
 * with its steps indented by two spaces ({@code if} blocks' lines at the same indentation); no
 * comments; a newline after every line.
 */
public final class DesignPrinter {
  private DesignPrinter() {}

  /** The canonical text of {@code d}. */
  public static String print(Design d) {
    StringBuilder sb = new StringBuilder();
    sb.append("design ").append(d.name()).append('\n');
    sb.append("vram ").append(Sizes.format(d.vram())).append('\n');
    if (d.poolThreshold() != 0) {
      sb.append("pool threshold ")
          .append(d.poolThreshold() == Design.THRESHOLD_MAX ? "max" : Sizes.format(d.poolThreshold()))
          .append('\n');
    }
    for (ResidentBuffer b : d.buffers()) {
      sb.append("buffer ").append(b.name()).append(' ').append(Sizes.format(b.bytes())).append('\n');
    }
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
      body(sb, r.body());
    }
    for (Task t : d.tasks()) {
      sb.append('\n');
      sb.append("task ").append(t.name()).append('\n');
      body(sb, t.body());
    }
    return sb.toString();
  }

  private static void body(StringBuilder sb, List<Step> steps) {
    for (Step s : steps) {
      for (String line : Steps.lines(s)) {
        sb.append("  ").append(line).append('\n');
      }
    }
  }
}
