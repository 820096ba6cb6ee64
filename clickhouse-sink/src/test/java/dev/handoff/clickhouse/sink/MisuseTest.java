package dev.handoff.clickhouse.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.core.Chain;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Providers;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The mistakes a user made with the hand-wired stage cannot be expressed with the sink: a format
 * pairing, workers left unstarted, a chain watching another budget.
 */
final class MisuseTest {

  @ParameterizedTest
  @EnumSource(InsertFormat.class)
  void oneFormatNamesBothTheEncoderAndTheInsertFormat(InsertFormat format) {
    assertThat(Providers.encoderNames()).contains(format.encoderName());
    assertThat(format.clickHouseName()).isIn("Native", "RowBinary");
    assertThat(format.clickHouseName().toLowerCase(java.util.Locale.ROOT))
        .isEqualTo(format.encoderName());
  }

  @Test
  void theBuilderTakesNoSeparateEncoderOrWriterFormat() {
    for (Method m : ClickHouseSinkBuilder.class.getMethods()) {
      assertThat(m.getName()).as("a builder method that could pair formats wrongly")
          .isNotIn("encoder", "writer", "encoderName", "writerFormat");
    }
  }

  @Test
  void theSinkStartsItsOwnWorkers_thereIsNoStartToForget() {
    assertThat(Arrays.stream(ClickHouseSink.class.getMethods())
        .filter(m -> Modifier.isPublic(m.getModifiers()))
        .map(Method::getName)).doesNotContain("start");
  }

  @Test
  void aChainCannotBeGivenABudgetOtherThanItsStages() {
    for (Method m : Chain.Builder.class.getMethods()) {
      assertThat(m.getParameterTypes()).as(m.toString()).doesNotContain(InflightBudget.class);
    }
  }

  @Test
  void buildWithoutATableFailsAndSaysWhatIsMissing() {
    assertThatThrownBy(() -> ClickHouseSink.forObjectArrays().build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("table(");
  }
}
