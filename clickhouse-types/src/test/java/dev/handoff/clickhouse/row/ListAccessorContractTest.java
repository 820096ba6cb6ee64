package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.tck.RowAccessorContract;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The TCK's RowAccessorContract for {@link RowAccessors#list()}. */
final class ListAccessorContractTest extends RowAccessorContract<List<?>> {

  @Override
  protected RowAccessor<List<?>> accessor() {
    return RowAccessors.list();
  }

  @Override
  protected List<Sample<List<?>>> samples() {
    List<Sample<List<?>>> samples = new ArrayList<>();
    int n = 0;
    for (List<ContractSamples.Cell> row : ContractSamples.rows()) {
      samples.add(new Sample<>("row " + n++, Arrays.asList(ContractSamples.values(row)),
          ContractSamples.expected(row)));
    }
    return samples;
  }
}
