package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.sim.DurationsFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A capture's NVTX ranges named as a design's steps, as a durations file. */
class CaptureDurationsTest {
  @Test
  void theH100TestEnginesRangesTimeTheSingleLockDesignsSteps() throws Exception {
    // the test engine's single-lock mode on the H100: 3 workers x 10 jobs, each job's steps in NVTX ranges
    Capture c = CaptureFormat.read(Path.of("observe/src/test/resources/h100/single-lock.capture"));
    Design d = DesignParser.parse(Path.of("designs/single-lock.design"));
    CaptureDurations.Result r = CaptureDurations.of(c, d);
    assertThat(r.measured()).extracting(DurationsFile.Measured::name).containsExactlyInAnyOrder("synthesize", "ntt_msm",
        "b_g2_msm", "epilogue");
    assertThat(r.measured()).allSatisfy(m -> {
      assertThat(m.seconds()).as(m.name()).hasSize(30).allSatisfy(x -> assertThat(x).isPositive().isLessThan(60.0));
      assertThat(m.cores()).isEmpty();
      assertThat(m.kind()).isEqualTo(m.name().equals("ntt_msm") ? DurationsFile.Kind.KERNEL : DurationsFile.Kind.CPU);
    });
    assertThat(r.unmatched()).contains("alloc staged", "free staged", "job").doesNotContain("synthesize");
  }

  @Test
  void aRangeIsTimedFromItsPushToItsPopOnItsThreadAndDomain() throws Exception {
    Capture c = CaptureFormat.parse("t.capture", """
        # interlock capture v1
        # pid=1 program=/bin/x clock=CLOCK_MONOTONIC start_ns=0
        1000 10 range_push name=synthesize domain=-
        1500 11 range_push name=synthesize domain=-
        2000 10 range_push name=inner domain=-
        2500 10 range_pop domain=-
        4000 10 range_pop domain=-
        9500 11 range_pop domain=-
        9600 11 range_push name=ntt_msm domain=-
        """);
    Design d = DesignParser.parse(Path.of("designs/single-lock.design"));
    CaptureDurations.Result r = CaptureDurations.of(c, d);
    assertThat(r.measured()).hasSize(1); // ntt_msm never ended
    assertThat(r.measured().get(0).seconds()).containsExactly(3e-6, 8e-6);
    assertThat(r.unmatched()).containsExactly("inner");
  }
}
