package dev.handoff.tck;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.Frame;
import dev.handoff.api.HandoffException;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.api.spi.WriteException;
import dev.handoff.tck.example.TextLineEncoder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Small implementations of every SPI for the TCK's own tests, each correct by default and broken
 * in one chosen way on request, so that a test can show which checks of a suite catch which bug.
 */
final class Fixtures {
  private Fixtures() {}

  /** A bug to plant in {@link HeldLinesEncoder}. */
  enum EncoderBug { NONE, KEEPS_REJECTED_BYTES, BUFFERED_BYTES_OFF_BY_ONE }

  /**
   * A columnar encoder: text lines (as {@link TextLineEncoder} writes them) held in its own buffer
   * until {@code finishChunk}.
   */
  static final class HeldLinesEncoder implements RowEncoder<Object[]> {
    private final EncoderBug bug;
    private final TextLineEncoder lines = new TextLineEncoder(List.of("id", "name"));
    private final ChunkBuffer held = new ChunkBuffer(16);

    HeldLinesEncoder(EncoderBug bug) {
      this.bug = bug;
    }

    @Override
    public void encode(Object[] row, ChunkBuffer buffer) {
      int start = held.length();
      try {
        lines.encode(row, held);
      } catch (HandoffException e) {
        if (bug != EncoderBug.KEEPS_REJECTED_BYTES) {
          held.truncate(start);
        }
        throw e;
      }
    }

    @Override
    public void finishChunk(ChunkBuffer buffer) {
      buffer.writeBuffer(held);
      held.truncate(0);
    }

    @Override
    public int bufferedBytes() {
      int n = held.length();
      return bug == EncoderBug.BUFFERED_BYTES_OFF_BY_ONE && n > 0 ? n + 1 : n;
    }

    @Override
    public RowEncoder<Object[]> newInstance() {
      return new HeldLinesEncoder(bug);
    }
  }

  /** A correct router: the key's unsigned remainder. */
  static final class ModuloRouter implements ShardRouter {
    @Override
    public int route(long routingKey, long eventTimeMs, int numShards) {
      return (int) Long.remainderUnsigned(routingKey, numShards);
    }
  }

  /** Returns {@code numShards}: one past the last shard. */
  static final class OutOfRangeRouter implements ShardRouter {
    @Override
    public int route(long routingKey, long eventTimeMs, int numShards) {
      return numShards;
    }
  }

  /** Picks shards at random, from a seed of its own per instance: in range but not stable. */
  static final class RandomRouter implements ShardRouter {
    private static final AtomicLong SEEDS = new AtomicLong();
    private final SplittableRandom random = new SplittableRandom(SEEDS.incrementAndGet());

    @Override
    public int route(long routingKey, long eventTimeMs, int numShards) {
      return random.nextInt(numShards);
    }
  }

  /** Uses the key's lowest bit only: stable and in range, but two shards at most get records. */
  static final class LowBitRouter implements ShardRouter {
    @Override
    public int route(long routingKey, long eventTimeMs, int numShards) {
      return (int) (routingKey & 1) % numShards;
    }
  }

  /**
   * An accessor of {@code Object[]} rows of Long, String, byte[], null and nested Object[]
   * values.
   */
  static final class ArrayAccessor implements RowAccessor<Object[]> {
    private final boolean nullBlind;
    private final boolean bytesShort;

    /** A correct accessor, or one whose {@code isNull} is always false. */
    ArrayAccessor(boolean nullBlind) {
      this(nullBlind, false);
    }

    /**
     * An accessor as {@link #ArrayAccessor(boolean)}, whose {@code writeBytesWithLength} leaves
     * out the last byte when {@code bytesShort}.
     */
    ArrayAccessor(boolean nullBlind, boolean bytesShort) {
      this.nullBlind = nullBlind;
      this.bytesShort = bytesShort;
    }

    @Override
    public void writeBytesWithLength(Object[] row, int field, dev.handoff.api.ChunkBuffer out) {
      byte[] b = (byte[]) row[field];
      int n = bytesShort ? Math.max(0, b.length - 1) : b.length;
      out.writeVarUInt(n);
      out.writeBytes(b, 0, n);
    }

    @Override
    public ValueKind kind(Object[] row, int field) {
      Object v = row[field];
      if (v == null) {
        return ValueKind.NULL;
      }
      if (v instanceof Long) {
        return ValueKind.LONG;
      }
      if (v instanceof String) {
        return ValueKind.TEXT;
      }
      if (v instanceof Object[]) {
        return ValueKind.SEQUENCE;
      }
      if (v instanceof BigInteger) {
        return ValueKind.BIG_INTEGER;
      }
      if (v instanceof BigDecimal) {
        return ValueKind.BIG_DECIMAL;
      }
      if (v instanceof byte[]) {
        return ValueKind.BYTES;
      }
      return ValueKind.OTHER;
    }

    @Override
    public boolean isNull(Object[] row, int field) {
      return !nullBlind && row[field] == null;
    }

    @Override
    public Object getObject(Object[] row, int field) {
      return row[field];
    }

    @Override
    @SuppressWarnings("unchecked")
    public RowAccessor<Object> nested(Object[] row, int field) {
      return (RowAccessor<Object>) (RowAccessor<?>) this;
    }

    @Override
    public int size(Object[] row) {
      return row.length;
    }
  }

  /** A bug to plant in {@link MemoryWriter}. */
  enum WriterBug { NONE, OUTAGE_IS_PERMANENT, WRITES_AFTER_CLOSE, SPLIT_DROPS_A_ROW }

  /**
   * A writer into a list of text lines, frames as {@link TextLineEncoder} makes them: a line with
   * the value {@code bad} is rejected; an unreachable writer fails every write; split gives one
   * frame per line.
   */
  static final class MemoryWriter implements InsertWriter {
    private final List<String> sink;
    private final boolean reachable;
    private final WriterBug bug;
    private volatile boolean closed;

    MemoryWriter(List<String> sink, boolean reachable, WriterBug bug) {
      this.sink = sink;
      this.reachable = reachable;
      this.bug = bug;
    }

    @Override
    public void write(Insert insert) throws WriteException {
      if (closed && bug != WriterBug.WRITES_AFTER_CLOSE) {
        throw new IllegalStateException("memory writer is closed");
      }
      if (!reachable) {
        throw new WriteException(bug == WriterBug.OUTAGE_IS_PERMANENT
            ? WriteException.Kind.PERMANENT : WriteException.Kind.TRANSIENT, -1,
            "memory sink unreachable", null);
      }
      List<String> lines = lines(new String(insert.body(), UTF_8));
      for (String line : lines) {
        if (line.endsWith("\tbad")) {
          throw new WriteException(WriteException.Kind.PERMANENT, 1,
              "memory sink rejected the line " + line, null);
        }
      }
      synchronized (sink) {
        sink.addAll(lines);
      }
    }

    @Override
    public Optional<List<Frame>> split(Frame frame) {
      List<String> lines = lines(new String(frame.toByteArray(), UTF_8));
      if (lines.size() < 2) {
        return Optional.empty();
      }
      List<Frame> parts = new ArrayList<>();
      for (String line : lines) {
        parts.add(Frame.copyOf((line + "\n").getBytes(UTF_8)));
      }
      if (bug == WriterBug.SPLIT_DROPS_A_ROW) {
        parts.remove(parts.size() - 1);
      }
      return Optional.of(parts);
    }

    @Override
    public void close() {
      closed = true;
    }

    /** The lines of a body, without their line breaks. */
    static List<String> lines(String body) {
      if (body.isEmpty()) {
        return Collections.emptyList();
      }
      return List.of(body.substring(0, body.length() - 1).split("\n", -1));
    }
  }

  /** A frame of rows {@code {i, "row" + i}} for {@code i} from 0, plus {@code extra} rows. */
  static Frame textFrame(int rows, Object[]... extra) {
    TextLineEncoder encoder = new TextLineEncoder(List.of("id", "name"));
    ChunkBuffer buffer = new ChunkBuffer(64);
    for (int i = 0; i < rows; i++) {
      encoder.encode(new Object[] {i, "row" + i}, buffer);
    }
    for (Object[] row : extra) {
      encoder.encode(row, buffer);
    }
    return buffer.split();
  }
}
