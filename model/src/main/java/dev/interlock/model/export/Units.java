package dev.interlock.model.export;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.ResidentBuffer;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Steps;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte unit of the exported model: the greatest common divisor of vram, every allocation and device buffer size
 * and a finite pool threshold below vram, so every byte counter is an exact Promela {@code int}.
 *
 * @param bytes bytes per unit
 */
record Units(long bytes) {
  Units {
    if (bytes < 1) {
      throw new IllegalArgumentException("a unit needs at least one byte, got " + bytes);
    }
  }

  /** The unit of design d; refuses a design whose vram would not fit an {@code int} of units. */
  static Units of(Design d) {
    long unit = d.vram();
    List<List<dev.interlock.model.step.Step>> bodies = new ArrayList<>();
    d.roles().forEach(r -> bodies.add(r.body()));
    d.tasks().forEach(t -> bodies.add(t.body()));
    for (var body : bodies) {
      for (var s : Steps.flatten(body)) {
        if (s instanceof Alloc a) {
          unit = gcd(unit, a.bytes());
        }
      }
    }
    for (ResidentBuffer b : d.buffers()) {
      unit = gcd(unit, b.bytes());
    }
    if (d.poolThreshold() > 0 && d.poolThreshold() < d.vram()) {
      unit = gcd(unit, d.poolThreshold());
    }
    if (d.vram() / unit > Integer.MAX_VALUE / 4) {
      throw new ExportException("design " + d.name() + ": the sizes' common unit is " + Sizes.format(unit) + ", so "
          + Sizes.format(d.vram()) + " vram is " + d.vram() / unit + " units, more than a Promela int holds safely");
    }
    return new Units(unit);
  }

  /** Exact units of a size that is a multiple of the unit. */
  long of(long size) {
    if (size % bytes != 0) {
      throw new IllegalArgumentException(size + " bytes is not a multiple of the unit " + bytes);
    }
    return size / bytes;
  }

  /** The fewest units that hold at least {@code size} bytes: {@code free >= size} iff {@code freeUnits >= ceil}. */
  long ceil(long size) {
    return (size + bytes - 1) / bytes;
  }

  /** How the unit reads in the model's header. */
  String describe() {
    return Sizes.format(bytes) + " (" + bytes + " bytes)";
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}
