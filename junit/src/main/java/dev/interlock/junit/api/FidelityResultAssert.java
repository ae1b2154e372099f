package dev.interlock.junit.api;

import org.assertj.core.api.AbstractAssert;

/** AssertJ assertions on a {@link FidelityResult}; a failure's message is the expectation, then the comparison. */
public final class FidelityResultAssert extends AbstractAssert<FidelityResultAssert, FidelityResult> {
  FidelityResultAssert(FidelityResult actual) {
    super(actual, FidelityResultAssert.class);
  }

  /** Verifies that the device did what the model says (a LIMIT fails: nothing was compared). */
  public FidelityResultAssert agrees() {
    isNotNull();
    if (!actual.agrees()) {
      failWithMessage("%s", "expected the device to agree with the model, got DISAGREE\n\n" + actual.report());
    }
    return this;
  }

  /** Verifies that the device did not do what the model says, or that nothing was compared. */
  public FidelityResultAssert disagrees() {
    isNotNull();
    if (actual.agrees()) {
      failWithMessage("%s", "expected the device to disagree with the model, got agree\n\n" + actual.report());
    }
    return this;
  }
}
