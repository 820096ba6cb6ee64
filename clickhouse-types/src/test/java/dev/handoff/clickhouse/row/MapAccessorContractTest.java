package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.tck.RowAccessorContract;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The TCK's RowAccessorContract for {@link RowAccessors#map}: the first row maps every column
 * (nulls as null values), the second leaves its null columns' keys out and has a key that is no
 * column; both read the same.
 */
final class MapAccessorContractTest extends RowAccessorContract<Map<String, ?>> {

  @Override
  protected RowAccessor<Map<String, ?>> accessor() {
    return RowAccessors.map(ContractSamples.schema());
  }

  @Override
  protected List<Sample<Map<String, ?>>> samples() {
    List<Sample<Map<String, ?>>> samples = new ArrayList<>();
    int n = 0;
    for (List<ContractSamples.Cell> row : ContractSamples.rows()) {
      Map<String, Object> map = new HashMap<>();
      for (ContractSamples.Cell c : row) {
        if (c.value() != null || n == 0) {
          map.put(c.column(), c.value());
        }
      }
      if (n == 1) {
        map.put("not a column", 1);
      }
      samples.add(new Sample<>("row " + n++, map, ContractSamples.expected(row)));
    }
    return samples;
  }
}
