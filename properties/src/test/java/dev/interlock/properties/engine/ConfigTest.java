package dev.interlock.properties.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ConfigTest {

  private String saved;

  @BeforeEach
  void saveSeedProperty() {
    saved = System.getProperty(Config.SEED_PROPERTY);
  }

  @AfterEach
  void restoreSeedProperty() {
    if (saved == null) {
      System.clearProperty(Config.SEED_PROPERTY);
    } else {
      System.setProperty(Config.SEED_PROPERTY, saved);
    }
  }

  @Test
  void defaultSeedIsStableAndDependsOnTheName() {
    System.clearProperty(Config.SEED_PROPERTY);
    Config a = Config.defaults("lock is exclusive");
    assertThat(Config.defaults("lock is exclusive")).isEqualTo(a);
    assertThat(Config.defaults("lock is fair").seed()).isNotEqualTo(a.seed());
    assertThat(a.seed()).isNotNegative();
    assertThat(a.tries()).isEqualTo(Config.DEFAULT_TRIES);
    assertThat(a.maxShrinks()).isEqualTo(Config.DEFAULT_MAX_SHRINKS);
  }

  @Test
  void blankPropertyKeepsTheDefault() {
    System.clearProperty(Config.SEED_PROPERTY);
    long byName = Config.defaults("p").seed();
    System.setProperty(Config.SEED_PROPERTY, "  ");
    assertThat(Config.defaults("p").seed()).isEqualTo(byName);
  }

  @Test
  void seedPropertyOverridesTheDefault() {
    System.setProperty(Config.SEED_PROPERTY, " -12345 ");
    assertThat(Config.defaults("p").seed()).isEqualTo(-12345L);
    assertThat(Config.defaults("q").seed()).isEqualTo(-12345L);
  }

  @Test
  void seedPropertyReproducesAFailureReport() {
    System.setProperty(Config.SEED_PROPERTY, "777");
    PropertyResult.Failed<Integer> f =
        PropertyRunner.assertFails("over 5", Gen.ints(0, 100), x -> x <= 5);
    assertThat(f.seed()).isEqualTo(777L);
    assertThat(f.report()).contains("-Dinterlock.seed=777");
  }

  @Test
  void badSeedPropertyIsAClearError() {
    System.setProperty(Config.SEED_PROPERTY, "abc");
    assertThatThrownBy(() -> Config.defaults("p"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("interlock.seed")
        .hasMessageContaining("abc");
  }

  @Test
  void withersAndValidation() {
    Config c = Config.ofSeed(1).withTries(7).withMaxShrinks(0).withSeed(2);
    assertThat(c).isEqualTo(new Config(2, 7, 0));
    assertThatThrownBy(() -> c.withTries(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> c.withMaxShrinks(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
