/**
 * The ClickHouse sink: one object from a pipeline to a ClickHouse table. {@link
 * dev.handoff.clickhouse.sink.ClickHouseSink} reads the table's columns from the server, creates
 * the encoder and the HTTP writer of one {@link dev.handoff.clickhouse.sink.InsertFormat}, owns
 * the queues, the in-flight budget, the stage, the sink workers and the acknowledgement trackers,
 * and starts the workers itself.
 *
 * <p>The encoders are found by name through {@link java.util.ServiceLoader}; both built-in ones
 * come with this module's Maven dependencies.
 */
module dev.handoff.clickhouse.sink {
  requires transitive dev.handoff.api;
  requires transitive dev.handoff.core;
  requires transitive dev.handoff.clickhouse.types;
  requires transitive dev.handoff.clickhouse.http;
  requires org.slf4j;

  exports dev.handoff.clickhouse.sink;

  uses dev.handoff.api.spi.RowEncoderProvider;
}
