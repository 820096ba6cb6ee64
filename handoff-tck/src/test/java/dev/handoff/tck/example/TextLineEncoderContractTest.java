package dev.handoff.tck.example;

import dev.handoff.api.spi.RowEncoder;
import dev.handoff.tck.RowEncoderContract;
import java.util.List;

/** Proves TextLineEncoder with the TCK: every check of RowEncoderContract runs on it. */
final class TextLineEncoderContractTest extends RowEncoderContract<Object[]> {

  @Override
  protected RowEncoder<Object[]> newEncoder() {
    return new TextLineEncoder(List.of("id", "name"));
  }

  @Override
  protected boolean rowFormat() {
    return true; // encode writes each row into the buffer; nothing is held
  }

  @Override
  protected List<Object[]> goodRows() {
    return List.of(
        new Object[] {1, "one"},
        new Object[] {2, ""},
        new Object[] {3L, "d\u00e9j\u00e0 vu"});
  }

  @Override
  protected List<BadRow<Object[]>> badRows() {
    return List.of(
        BadRow.of(new Object[] {4, null}, "name", "null", "no null"),
        BadRow.of(new Object[] {5, "a\tb"}, "name", "a\tb", "tab or line break"));
  }
}
