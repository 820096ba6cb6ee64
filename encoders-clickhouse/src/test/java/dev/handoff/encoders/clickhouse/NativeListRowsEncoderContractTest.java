package dev.handoff.encoders.clickhouse;

import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.Providers;
import dev.handoff.tck.RowEncoderContract;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The TCK's RowEncoder contract for the {@code native} encoder with {@code List} rows, which take
 * the accessor path rather than the {@code Object[]} fast path: the same rows and errors as {@link
 * NativeEncoderContractTest}.
 */
final class NativeListRowsEncoderContractTest extends RowEncoderContract<List<?>> {
  private final NativeEncoderContractTest arrays = new NativeEncoderContractTest();

  @Override
  protected boolean rowFormat() {
    return false;
  }

  @Override
  protected RowEncoder<List<?>> newEncoder() {
    return Providers.encoder("native")
        .create(NativeEncoderContractTest.SCHEMA, RowAccessors.list(), Map.of());
  }

  @Override
  protected List<List<?>> goodRows() {
    List<List<?>> rows = new ArrayList<>();
    for (Object[] row : arrays.goodRows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  @Override
  protected List<BadRow<List<?>>> badRows() {
    List<BadRow<List<?>>> rows = new ArrayList<>();
    for (BadRow<Object[]> bad : arrays.badRows()) {
      rows.add(BadRow.of(Arrays.asList(bad.row()), bad.column(), bad.value(), bad.reason()));
    }
    return rows;
  }
}
