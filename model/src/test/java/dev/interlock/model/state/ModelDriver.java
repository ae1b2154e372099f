package dev.interlock.model.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;

/**
 * Drives a model by hand for the semantics tests: each call steps one thread and keeps the resulting state. Unlike the
 * explorer it also goes on from the state an ignored failure (SWALLOWED_OOM) moved to, as an engine's job does.
 */
final class ModelDriver {
  final Model model;
  long[] s;
  long[] out;

  ModelDriver(String design) {
    model = new Model(TestDesigns.parse(design));
    s = model.initial();
    out = new long[s.length];
  }

  /** Steps thread t; keeps the moved state, also the one of a SWALLOWED_OOM; returns the code. */
  int step(int t) {
    int code = model.step(s, t, out);
    if (code == Model.MOVED || Model.violation(code) == ViolationKind.SWALLOWED_OOM) {
      long[] tmp = s;
      s = out;
      out = tmp;
    }
    return code;
  }

  /** Steps thread t n times, asserting each moved. */
  void run(int t, int n) {
    for (int i = 0; i < n; i++) {
      assertThat(step(t)).as("step %d of %s", i, model.threadName(t)).isEqualTo(Model.MOVED);
    }
  }

  int thread(String name) {
    return model.threadIndex(name);
  }
}
