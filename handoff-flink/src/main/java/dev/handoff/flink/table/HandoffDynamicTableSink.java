package dev.handoff.flink.table;

import dev.handoff.flink.HandoffSink;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;

/**
 * The {@code handoff-clickhouse} table sink: insert-only (ClickHouse tables take appends; an
 * updating query fails at planning), running a {@link HandoffSink} of {@link RowData} built by
 * {@link HandoffDynamicTableFactory}. Immutable: {@link #copy()} shares the sink.
 */
final class HandoffDynamicTableSink implements DynamicTableSink {
  private final HandoffSink<RowData> sink;
  private final Integer parallelism;
  private final String table;

  HandoffDynamicTableSink(HandoffSink<RowData> sink, Integer parallelism, String table) {
    this.sink = sink;
    this.parallelism = parallelism;
    this.table = table;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    return ChangelogMode.insertOnly();
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    return SinkV2Provider.of(sink, parallelism);
  }

  @Override
  public DynamicTableSink copy() {
    return new HandoffDynamicTableSink(sink, parallelism, table);
  }

  @Override
  public String asSummaryString() {
    return "handoff-clickhouse(" + table + ")";
  }
}
