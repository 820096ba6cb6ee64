package dev.handoff.clickhouse.http;

/** The TCK's InsertWriterContract for the HTTP writer with {@code FORMAT Native}. */
final class NativeHttpWriterContractTest extends HttpWriterContract {
  NativeHttpWriterContractTest() {
    super("Native");
  }
}
