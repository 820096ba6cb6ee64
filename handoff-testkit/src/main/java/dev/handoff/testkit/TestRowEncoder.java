package dev.handoff.testkit;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.HandoffException;
import dev.handoff.api.spi.RowEncoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * An encoder of {@link TestRow}s with a layout tests can read back: per row, the sequence number
 * (8 bytes LE), the row size (4 bytes LE), then filler up to the row size.
 *
 * <p>In {@linkplain #columnar() columnar} mode it holds rows in a buffer of its own, reports them
 * through {@link #bufferedBytes()} and writes them in {@link #finishChunk}, like a Native encoder;
 * {@link #failFinishChunk} makes the next {@code finishChunk} throw. Faulty rows write half of
 * themselves before throwing, so a missing rollback shows up as corrupt frames.
 */
public final class TestRowEncoder implements RowEncoder<TestRow> {

  /** The smallest encoded row: sequence and size. */
  public static final int MIN_ROW_BYTES = 12;

  private final boolean columnar;
  private final ChunkBuffer held;
  private boolean failFinishChunk;
  private int instances;

  private TestRowEncoder(boolean columnar) {
    this.columnar = columnar;
    this.held = columnar ? new ChunkBuffer(1024) : null;
  }

  /** Returns a row-format encoder (writes every row straight into the chunk buffer). */
  public static TestRowEncoder rows() {
    return new TestRowEncoder(false);
  }

  /** Returns a columnar encoder (holds rows until {@code finishChunk}). */
  public static TestRowEncoder columnar() {
    return new TestRowEncoder(true);
  }

  @Override
  public void encode(TestRow row, ChunkBuffer buffer) {
    ChunkBuffer out = columnar ? held : buffer;
    int start = out.length();
    out.writeLongLE(row.seq());
    out.writeIntLE(row.bytes());
    switch (row.fault()) {
      case NONE:
        out.writeZeros(row.bytes() - MIN_ROW_BYTES);
        return;
      case DATA:
        rollbackIfColumnar(start);
        throw HandoffException.data("column seq: row " + row.seq() + " is marked bad (test fault)");
      case FATAL:
        rollbackIfColumnar(start);
        throw HandoffException.fatal("encoder broken at row " + row.seq() + " (test fault)", null);
      default:
        rollbackIfColumnar(start);
        throw new IllegalStateException("unexpected bug at row " + row.seq() + " (test fault)");
    }
  }

  private void rollbackIfColumnar(int start) {
    // A columnar encoder owns its buffer and must roll it back itself; a row encoder leaves the
    // partial row in the chunk buffer for the stage to truncate.
    if (columnar) {
      held.truncate(start);
    }
  }

  @Override
  public void finishChunk(ChunkBuffer buffer) {
    if (!columnar) {
      return;
    }
    if (failFinishChunk) {
      failFinishChunk = false;
      buffer.writeLongLE(-1L); // garbage the stage must never ship
      throw HandoffException.fatal("finishChunk failed (test fault)", null);
    }
    buffer.writeBuffer(held);
    held.truncate(0);
  }

  @Override
  public int bufferedBytes() {
    return columnar ? held.length() : 0;
  }

  @Override
  public TestRowEncoder newInstance() {
    instances++;
    return new TestRowEncoder(columnar);
  }

  /** Returns whether this encoder holds rows until {@code finishChunk}. */
  public boolean isColumnar() {
    return columnar;
  }

  /** Makes the next {@code finishChunk} throw a {@code FATAL} error. */
  public void failFinishChunk() {
    this.failFinishChunk = true;
  }

  /** Returns how many times {@link #newInstance()} was called on this encoder. */
  public int instancesCreated() {
    return instances;
  }

  /**
   * Reads back the sequence numbers of the rows in {@code bytes}, in order.
   *
   * @throws IllegalArgumentException if the bytes are not a whole number of well-formed rows
   */
  public static List<Long> decodeSeqs(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    List<Long> seqs = new ArrayList<>();
    while (in.hasRemaining()) {
      if (in.remaining() < MIN_ROW_BYTES) {
        throw new IllegalArgumentException("truncated row at offset " + in.position());
      }
      long seq = in.getLong();
      int size = in.getInt();
      if (size < MIN_ROW_BYTES || size - MIN_ROW_BYTES > in.remaining()) {
        throw new IllegalArgumentException(
            "malformed row size " + size + " at offset " + (in.position() - 4));
      }
      for (int i = 0; i < size - MIN_ROW_BYTES; i++) {
        if (in.get() != 0) {
          throw new IllegalArgumentException("corrupt filler in row " + seq);
        }
      }
      seqs.add(seq);
    }
    return seqs;
  }
}
