package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class ChunkConfigTest {

  @Test
  void defaults_are64KiBAndSkip() {
    ChunkConfig config = ChunkConfig.defaults();
    assertThat(ChunkConfig.DEFAULT_TARGET_BYTES).isEqualTo(65_536);
    assertThat(config.targetBytes()).isEqualTo(65_536);
    assertThat(config.encodePolicy()).isEqualTo(ErrorPolicy.SKIP);
  }

  @Test
  void constructor_rejectsNonPositiveTargetAndNamesTheValue() {
    for (int bad : new int[] {0, -1, Integer.MIN_VALUE}) {
      assertThatThrownBy(() -> new ChunkConfig(bad, ErrorPolicy.SKIP))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("targetBytes")
          .hasMessageContaining(Integer.toString(bad));
    }
  }

  @Test
  void constructor_acceptsTheSmallestPositiveTarget() {
    assertThat(new ChunkConfig(1, ErrorPolicy.FAIL).targetBytes()).isEqualTo(1);
  }

  @Test
  void constructor_rejectsNullPolicy() {
    assertThatNullPointerException()
        .isThrownBy(() -> new ChunkConfig(1024, null))
        .withMessageContaining("encodePolicy");
  }

  @Test
  void withers_returnValidatedCopiesAndLeaveTheOriginal() {
    ChunkConfig base = ChunkConfig.defaults();

    assertThat(base.withTargetBytes(4096))
        .isEqualTo(new ChunkConfig(4096, ErrorPolicy.SKIP));
    assertThat(base.withEncodePolicy(ErrorPolicy.FAIL))
        .isEqualTo(new ChunkConfig(65_536, ErrorPolicy.FAIL));
    assertThat(base).isEqualTo(ChunkConfig.defaults());

    assertThatThrownBy(() -> base.withTargetBytes(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatNullPointerException().isThrownBy(() -> base.withEncodePolicy(null));
  }
}
