package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.tck.RowAccessorContract;
import java.util.ArrayList;
import java.util.List;

/** The TCK's RowAccessorContract for {@link RowAccessors#objectArray()}. */
final class ObjectArrayAccessorContractTest extends RowAccessorContract<Object[]> {

  @Override
  protected RowAccessor<Object[]> accessor() {
    return RowAccessors.objectArray();
  }

  @Override
  protected List<Sample<Object[]>> samples() {
    List<Sample<Object[]>> samples = new ArrayList<>();
    int n = 0;
    for (List<ContractSamples.Cell> row : ContractSamples.rows()) {
      samples.add(new Sample<>("row " + n++, ContractSamples.values(row),
          ContractSamples.expected(row)));
    }
    return samples;
  }
}
