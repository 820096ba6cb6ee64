package dev.handoff.tck.archfixture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.spi.ShardRouter;
import org.junit.jupiter.api.Test;

/** Test fixture: a TCK class that uses the API, JUnit's API and AssertJ only (allowed). */
public abstract class TckUsesApiJUnitAndAssertJ {
  protected abstract ShardRouter router();

  @Test
  public void check() {
    assertThat(router()).isNotNull();
  }
}
