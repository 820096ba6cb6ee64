package dev.handoff.benchmarks.encode;

import com.clickhouse.client.api.data_formats.RowBinaryFormatSerializer;
import com.clickhouse.client.api.data_formats.RowBinaryFormatWriter;
import com.clickhouse.data.ClickHouseFormat;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.encoders.clickhouse.internal.NativeEncoderProvider;
import dev.handoff.encoders.rowbinary.internal.RowBinaryEncoderProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;

/**
 * The five contenders over one {@link Workload}, each writing all its rows per call and
 * returning the number of bytes written. Sinks are sized for the output and reused, so no
 * contender pays for growing its buffer.
 *
 * <ol>
 *   <li>{@link #handoff}: our {@code rowbinary} encoder over {@link RowAccessors#objectArray()},
 *       into a {@link ChunkBuffer} truncated to 0 first;
 *   <li>{@link #clientV2Writer}: client-v2's {@link RowBinaryFormatWriter}, {@code setValue} per
 *       column and {@code commitRow} per row, into a {@link ByteSink};
 *   <li>{@link #clientV2Serializer}: client-v2's {@link RowBinaryFormatSerializer}, typed calls
 *       written by hand for the schema ({@link Workload#writeTyped});
 *   <li>{@link #jackson}: Jackson's {@link JsonGenerator} writing JSONEachRow, one object per
 *       row with its field names ({@link Workload#writeJson});
 *   <li>{@link #arraycopy}: one {@code System.arraycopy} of as many bytes as {@link #handoff}
 *       writes: the memory-bandwidth ceiling.
 * </ol>
 */
public final class Contenders {
  private final Workload workload;
  private final Object[][] rows;

  private final RowEncoder<Object[]> encoder;
  private final ChunkBuffer buffer;

  private final ByteSink writerSink;
  private final RowBinaryFormatWriter writer;
  private final int columns;

  private final ByteSink serializerSink;
  private final RowBinaryFormatSerializer serializer;

  private final ByteSink jsonSink;
  private final JsonFactory json;

  private final byte[] copySource;
  private final byte[] copyTarget;

  /*
   * The native contender is built on first use, so that a fork measuring another
   * contender never runs the Native encoder: both encoders call the same ChunkBuffer methods,
   * and the Native encoder's 100,000 rows in the setup would shape the JIT's profile of those
   * methods in a fork that measures rowbinary (17.8 M narrow rows/s with it, 19.0 M without, in
   * one pair of short runs).
   */
  private RowEncoder<Object[]> nativeEncoder;
  private ChunkBuffer nativeBuffer;
  private byte[] nativeCopySource;
  private byte[] nativeCopyTarget;

  public Contenders(Workload workload) {
    this.workload = workload;
    this.rows = workload.rows();
    this.columns = workload.columns().size();
    this.encoder = new RowBinaryEncoderProvider()
        .create(workload.handoffSchema(), RowAccessors.objectArray(), Map.of());

    // Measure once, then give every sink room for the whole output.
    ChunkBuffer probe = new ChunkBuffer(1 << 16);
    for (Object[] row : rows) {
      encoder.encode(row, probe);
    }
    int size = probe.length();
    int room = size + size / 8 + 4096;
    this.buffer = new ChunkBuffer(room);
    this.writerSink = new ByteSink(room);
    this.writer = new RowBinaryFormatWriter(writerSink, workload.clientV2Schema(),
        ClickHouseFormat.RowBinary);
    this.serializerSink = new ByteSink(room);
    this.serializer = new RowBinaryFormatSerializer(serializerSink);
    this.jsonSink = new ByteSink(room * 4);
    this.json = new JsonFactory().setRootValueSeparator(null);
    this.copySource = probe.toByteArray();
    this.copyTarget = new byte[size];
  }

  /** Builds the native contender on first use: same rows, blocks sealed at 64 KiB. */
  private void ensureNative() {
    if (nativeEncoder != null) {
      return;
    }
    nativeEncoder = new NativeEncoderProvider()
        .create(workload.handoffSchema(), RowAccessors.objectArray(), Map.of());
    ChunkBuffer nativeProbe = new ChunkBuffer(1 << 16);
    encodeNative(nativeEncoder, rows, nativeProbe);
    int nativeSize = nativeProbe.length();
    nativeBuffer = new ChunkBuffer(nativeSize + nativeSize / 8 + 4096);
    nativeCopySource = nativeProbe.toByteArray();
    nativeCopyTarget = new byte[nativeSize];
  }

  /** Where {@link #handoffNative} seals a block: the stage's default chunk size, 64 KiB. */
  public static final int NATIVE_BLOCK_BYTES = 1 << 16;

  private static void encodeNative(RowEncoder<Object[]> e, Object[][] rows, ChunkBuffer b) {
    for (Object[] row : rows) {
      e.encode(row, b);
      if (e.bufferedBytes() >= NATIVE_BLOCK_BYTES) {
        e.finishChunk(b);
      }
    }
    e.finishChunk(b);
  }

  /**
   * Our native encoder: every row into a reused chunk buffer (truncated to 0), a
   * Native block sealed with {@code finishChunk} whenever {@code bufferedBytes()} reaches 64 KiB
   * (as the stage seals its chunks), and the rest sealed at the end.
   */
  public int handoffNative() {
    ensureNative();
    ChunkBuffer b = nativeBuffer;
    b.truncate(0);
    encodeNative(nativeEncoder, rows, b);
    return b.length();
  }

  public byte[] handoffNativeBytes() {
    handoffNative();
    return nativeBuffer.toByteArray();
  }

  /** Bytes {@link #handoffNative} writes per operation. */
  public int nativeOutputBytes() {
    ensureNative();
    return nativeCopySource.length;
  }

  /** The ceiling for Native: copy as many bytes as the Native encoder writes. */
  public int nativeArraycopy() {
    ensureNative();
    System.arraycopy(nativeCopySource, 0, nativeCopyTarget, 0, nativeCopySource.length);
    return nativeCopyTarget.length;
  }

  public Workload workload() {
    return workload;
  }

  /** Our encoder: every row into a reused chunk buffer. */
  public int handoff() {
    ChunkBuffer b = buffer;
    b.truncate(0);
    RowEncoder<Object[]> e = encoder;
    for (Object[] row : rows) {
      e.encode(row, b);
    }
    return b.length();
  }

  /** client-v2's RowBinaryFormatWriter: setValue per column (1-based), commitRow per row. */
  public int clientV2Writer() {
    writerSink.reset();
    RowBinaryFormatWriter w = writer;
    int n = columns;
    try {
      for (Object[] row : rows) {
        for (int c = 0; c < n; c++) {
          w.setValue(c + 1, row[c]);
        }
        w.commitRow();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writerSink.size();
  }

  /** client-v2's RowBinaryFormatSerializer, typed calls per column. */
  public int clientV2Serializer() {
    serializerSink.reset();
    Workload wl = workload;
    try {
      for (Object[] row : rows) {
        wl.writeTyped(serializer, serializerSink, row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return serializerSink.size();
  }

  /** Jackson: JSONEachRow, one generator per call over a reused sink. */
  public int jackson() {
    jsonSink.reset();
    Workload wl = workload;
    try (JsonGenerator g = json.createGenerator(jsonSink)) {
      for (Object[] row : rows) {
        wl.writeJson(g, row);
        g.writeRaw('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return jsonSink.size();
  }

  /** The ceiling: copy as many bytes as our encoder writes. */
  public int arraycopy() {
    System.arraycopy(copySource, 0, copyTarget, 0, copySource.length);
    return copyTarget[copyTarget.length - 1];
  }

  /** The bytes our encoder writes per call. */
  public int outputBytes() {
    return copySource.length;
  }

  public byte[] handoffBytes() {
    handoff();
    return buffer.toByteArray();
  }

  public byte[] clientV2WriterBytes() {
    clientV2Writer();
    return writerSink.toByteArray();
  }

  public byte[] clientV2SerializerBytes() {
    clientV2Serializer();
    return serializerSink.toByteArray();
  }

  public byte[] jacksonBytes() {
    jackson();
    return jsonSink.toByteArray();
  }

  /**
   * Checks that the three RowBinary contenders write the same bytes for these rows (so they
   * measure the same work), and throws naming the first difference if not.
   */
  public void checkEquivalent() {
    byte[] ours = handoffBytes();
    compare("client-v2 RowBinaryFormatWriter", ours, clientV2WriterBytes());
    compare("client-v2 RowBinaryFormatSerializer", ours, clientV2SerializerBytes());
  }

  private void compare(String who, byte[] ours, byte[] theirs) {
    int at = Arrays.mismatch(ours, theirs);
    if (at >= 0) {
      throw new IllegalStateException(workload.name() + ": " + who + " differs from ours at byte "
          + at + " (ours " + ours.length + " bytes, theirs " + theirs.length + ")");
    }
  }
}
