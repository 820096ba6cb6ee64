package dev.handoff.encoders.clickhouse;

import dev.handoff.encoders.testsupport.JsonTextSweep;
import org.junit.jupiter.api.Test;

/**
 * JSON text rows write exactly the bytes of the same values given as maps (the tree path), over
 * a seed sweep of random texts and JSON types ({@link JsonTextSweep}); {@code
 * -Dhandoff.jsontext.seeds=N} runs more.
 */
final class NativeJsonTextFlatTest {
  @Test
  void textRows_writeTheBytesOfMapRows() {
    JsonTextSweep.run(NativeVariantDynamicJsonSweepTest.NATIVE, 0,
        Integer.getInteger("handoff.jsontext.seeds", 4000));
  }
}
