package dev.interlock.model.step;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.design.DesignParser;
import org.junit.jupiter.api.Test;

class StepsTest {
  private static String subject(String text) throws Exception {
    return Steps.subject(DesignParser.step(text));
  }

  @Test
  void aStepsSubjectIsWhatItActsOnOrItsKeyword() throws Exception {
    assertThat(subject("alloc staged 12GiB async keep")).isEqualTo("staged");
    assertThat(subject("free staged")).isEqualTo("staged");
    assertThat(subject("kernel ntt_msm uses staged scratch")).isEqualTo("ntt_msm");
    assertThat(subject("cpu b_g2_msm for 5ms")).isEqualTo("b_g2_msm");
    assertThat(subject("lock compute_mtx")).isEqualTo("compute_mtx");
    assertThat(subject("unlock compute_mtx")).isEqualTo("compute_mtx");
    assertThat(subject("acquire vram_units 3")).isEqualTo("vram_units");
    assertThat(subject("release vram_units 3")).isEqualTo("vram_units");
    assertThat(subject("spawn prep")).isEqualTo("prep");
    assertThat(subject("join prep")).isEqualTo("prep");
    assertThat(subject("signal ready")).isEqualTo("ready");
    assertThat(subject("wait ready")).isEqualTo("ready");
    assertThat(subject("sync")).isEqualTo("sync");
    assertThat(subject("sync stream")).isEqualTo("sync");
    assertThat(subject("trim")).isEqualTo("trim");
  }
}
