package dev.handoff.clickhouse.http;

/** The TCK's InsertWriterContract for the HTTP writer with {@code FORMAT RowBinary}. */
final class RowBinaryHttpWriterContractTest extends HttpWriterContract {
  RowBinaryHttpWriterContractTest() {
    super("RowBinary");
  }
}
