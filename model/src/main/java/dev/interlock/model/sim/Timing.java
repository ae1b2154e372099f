package dev.interlock.model.sim;

import java.util.Arrays;
import java.util.SplittableRandom;

/** How long one step takes, in seconds: a fixed time, or drawn from measured samples. */
public sealed interface Timing permits Timing.Fixed, Timing.Samples {

  /** This step's time in a run, drawn with {@code random} where it varies. */
  double seconds(SplittableRandom random);

  /** The mean time. */
  double mean();

  /** Always the same time. */
  record Fixed(double seconds) implements Timing {
    public Fixed {
      if (!(seconds >= 0) || Double.isInfinite(seconds)) {
        throw new IllegalArgumentException("a step's time is a finite number of seconds, at least 0, got " + seconds);
      }
    }

    @Override
    public double seconds(SplittableRandom random) {
      return seconds;
    }

    @Override
    public double mean() {
      return seconds;
    }
  }

  /** One of the measured times, each as likely. */
  record Samples(double[] values) implements Timing {
    public Samples {
      if (values.length == 0) {
        throw new IllegalArgumentException("a sampled time needs at least one sample");
      }
      values = values.clone();
      for (double v : values) {
        new Fixed(v); // the same validation
      }
    }

    @Override
    public double seconds(SplittableRandom random) {
      return values[random.nextInt(values.length)];
    }

    @Override
    public double mean() {
      return Arrays.stream(values).average().orElseThrow();
    }

    @Override
    public double[] values() {
      return values.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Samples s && Arrays.equals(s.values, values);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
      return "Samples" + Arrays.toString(values);
    }
  }
}
