package dev.interlock.junit.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.state.ViolationKind;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ViolationTest {
  @Test
  void theApisViolationsAreExactlyTheCheckersKindsInTheirOrder() {
    assertThat(Arrays.stream(Violation.values()).map(Enum::name))
        .containsExactlyElementsOf(Arrays.stream(ViolationKind.values()).map(Enum::name).toList());
  }
}
