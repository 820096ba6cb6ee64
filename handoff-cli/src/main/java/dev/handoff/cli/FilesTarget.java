package dev.handoff.cli;

import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.InsertWriter;
import java.io.IOException;

/** The {@code --out} target: the schema from {@code --schema}, inserts as files. */
final class FilesTarget implements Ingest.Target {
  private final Ingest.Settings s;

  FilesTarget(Ingest.Settings s) {
    this.s = s;
  }

  @Override
  public TableSchema schema() {
    return s.schema();
  }

  @Override
  public InsertWriter writer(TableSchema schema) throws IOException {
    return new OutDirWriter(s.out(), schema, s.format().clickhouse);
  }

  @Override
  public void close() {}
}
