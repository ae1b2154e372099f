package dev.interlock.gpu.cuda;

import static dev.interlock.model.TestProperties.withProperty;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MsmSettingsTest {
  @Test
  void theBatchAffineShapeParsesAndRefusesWhatTheKernelsCannotRun() {
    assertThat(MsmSettings.affineShape("4,23,16")).containsExactly(4, 23, 16);
    assertThat(MsmSettings.affineShape(" 2, 26 ,256")).containsExactly(2, 26, 256);
    for (String bad : new String[] {"", "4,23", "4,23,16,1", "0,23,16", "9,23,16", "4,3,16", "4,29,16", "4,23,0", "a,b,c"}) {
      assertThatThrownBy(() -> MsmSettings.affineShape(bad)).as(bad).hasMessageStartingWith("-Dinterlock.msm.affine=" + bad + ": expected");
    }
  }

  @Test
  void everyBadSettingIsReportedByNameAndTheDefaultsAreFine() {
    assertThat(MsmSettings.configurationError()).isEmpty();
    Map<String, String> bad = Map.of(
        "interlock.msm.affine", "4,23",
        "interlock.msm.accumulation", "jacobian",
        "interlock.msm.sortPassEntries", "-1",
        "interlock.msm.wave", "flase");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      withProperty(e.getKey(), e.getValue(), () -> assertThat(MsmSettings.configurationError()).as(e.getKey())
          .hasValueSatisfying(m -> assertThat(m).startsWith("-D" + e.getKey() + "=" + e.getValue() + ": expected")));
    }
    withProperty("interlock.msm.accumulation", "XYZZ", () -> {
      assertThat(MsmSettings.configurationError()).isEmpty();
      assertThat(MsmSettings.forcedAccumulation()).contains(MsmPlan.Accumulation.XYZZ);
    });
    withProperty("interlock.msm.sortPassEntries", "0", () -> assertThat(MsmSettings.sortPassEntries()).isZero());
    withProperty("interlock.msm.wave", "False", () -> assertThat(MsmSettings.wave()).isFalse());
  }
}
