package dev.handoff.benchmarks.encode;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Our two encoders on one column of a type of ClickHouse 20-26: 100,000 pre-generated values per
 * operation (so the score is values per second and {@code gc.alloc.rate.norm} bytes allocated
 * per value), into reused buffers sized for the output; Native seals a block per 64 KiB, as
 * {@link Contenders#handoffNative} does. A subclass names the type ({@code @Param}) and may add
 * contenders.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(Workload.ROWS)
public abstract class ModernTypeCost {
  /** The rows: one value each. */
  protected Object[][] rows;
  private RowEncoder<Object[]> rowBinary;
  private RowEncoder<Object[]> nativeEncoder;
  private ChunkBuffer rowBinaryBuffer;
  private ChunkBuffer nativeBuffer;

  /** Returns the column's type. */
  protected abstract String type();

  /** Returns the name of the values ({@link ModernTypeValues}): the type's, unless it says. */
  protected String dataset() {
    return type();
  }

  /** Sets up a subclass's contenders once ours are ready; {@code room}: our RowBinary size. */
  protected void setupOthers(int room) {}

  /** Generates the values and sizes the buffers. */
  @Setup
  public void setup() {
    rows = ModernTypeValues.rows(dataset(), Workload.ROWS, 42);
    TableSchema schema = TableSchema.of(new ColumnSpec("v", type()));
    rowBinary = new RowBinaryEncoderProvider().create(schema, RowAccessors.objectArray(),
        Map.of());
    nativeEncoder = new NativeEncoderProvider().create(schema, RowAccessors.objectArray(),
        Map.of());
    rowBinaryBuffer = new ChunkBuffer(1 << 16);
    nativeBuffer = new ChunkBuffer(1 << 16);
    int size = handoffRowBinary();
    rowBinaryBuffer = new ChunkBuffer(size + size / 8 + 4096);
    int nativeSize = handoffNative();
    nativeBuffer = new ChunkBuffer(nativeSize + nativeSize / 8 + 4096);
    setupOthers(size + size / 8 + 4096);
  }

  /** Our RowBinary bytes of all rows. */
  protected byte[] rowBinaryBytes() {
    handoffRowBinary();
    return rowBinaryBuffer.toByteArray();
  }

  /** Ours: the rowbinary encoder, every value into a reused chunk buffer. */
  @Benchmark
  public int handoffRowBinary() {
    ChunkBuffer b = rowBinaryBuffer;
    b.truncate(0);
    RowEncoder<Object[]> e = rowBinary;
    for (Object[] row : rows) {
      e.encode(row, b);
    }
    return b.length();
  }

  /** Ours: the native encoder, a block sealed per 64 KiB of buffered columns. */
  @Benchmark
  public int handoffNative() {
    ChunkBuffer b = nativeBuffer;
    b.truncate(0);
    RowEncoder<Object[]> e = nativeEncoder;
    for (Object[] row : rows) {
      e.encode(row, b);
      if (e.bufferedBytes() >= Contenders.NATIVE_BLOCK_BYTES) {
        e.finishChunk(b);
      }
    }
    e.finishChunk(b);
    return b.length();
  }
}
