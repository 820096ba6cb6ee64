/**
 * The ClickHouse HTTP writer: {@link dev.handoff.clickhouse.http.ClickHouseHttp} reads a table's
 * schema from {@code system.columns} and creates {@link dev.handoff.api.spi.InsertWriter}s that
 * send encoded chunks as {@code INSERT ... FORMAT Native} or {@code FORMAT RowBinary} over
 * HTTP/1.1 (a blocking client of its own; {@code java.net.http} for its timeout exceptions),
 * classify failures as transient or permanent, and split a rejected chunk into single rows.
 * Bodies go uncompressed, gzip-compressed, or in ClickHouse's own compressed blocks (LZ4 through
 * lz4-java, ZSTD through zstd-jni).
 */
module dev.handoff.clickhouse.http {
  requires transitive dev.handoff.api;
  requires dev.handoff.clickhouse.types;
  requires java.net.http;
  requires org.lz4.java;
  requires com.github.luben.zstd_jni;

  exports dev.handoff.clickhouse.http;
}
