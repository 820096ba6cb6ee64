package dev.handoff.benchmarks.stage;

import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The variants of {@link StageBenchmark} do the same work: on the benchmark's own 100,000 rows of
 * each schema, in each format, with and without the pool, the frames the stage hands on are the
 * bytes the encoder alone writes, nothing parks, and the budget and the pool end empty. (The
 * benchmark does not check this in its setup: a second encoder instance in the measuring JVM
 * would change how the JIT compiles the measured one.)
 */
class StageEquivalenceTest {

  static Stream<Arguments> cases() {
    Stream.Builder<Arguments> b = Stream.builder();
    for (String schema : new String[] {"narrow", "wide", "fixedWidth"}) {
      for (String format : new String[] {"rowbinary", "native"}) {
        b.add(Arguments.of(schema, format, true));
        b.add(Arguments.of(schema, format, false));
      }
    }
    return b.build();
  }

  @ParameterizedTest(name = "{0} {1} pooled={2}")
  @MethodSource("cases")
  void stageHandsOnTheEncodersBytes(String schema, String format, boolean pooled) {
    assertThatCode(() -> StageRig.checkSameBytes(StageBenchmark.workload(schema), format, pooled))
        .doesNotThrowAnyException();
  }
}
