package dev.interlock.junit.api;

import dev.interlock.model.TestDesigns;
import java.nio.file.Path;

/** Designs the API's tests check: inline text and the shipped files. */
final class Designs {
  private Designs() {}

  /** designs/two-lock.design without its comments: OOM with 2 workers in 9 transitions on 16 GiB, SAFE on 32 GiB. */
  static final String TWO_LOCK = """
      design two-lock
      vram 16GiB
      mutex mem_mtx
      mutex compute_mtx
      role gpu_worker x2 jobs 2
        cpu b_g2_msm
        lock mem_mtx
        alloc staged 12GiB
        unlock mem_mtx
        lock compute_mtx
        kernel ntt_msm uses staged
        free staged
        unlock compute_mtx
      """;

  /** A shipped design as a user names it from the repository root. */
  static Path shipped(String name) {
    return TestDesigns.path(name);
  }
}
