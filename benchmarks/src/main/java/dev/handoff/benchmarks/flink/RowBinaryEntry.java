package dev.handoff.benchmarks.flink;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.Serializable;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer;

/**
 * One request entry of {@link ClientV2AsyncSink}: a row already serialized to RowBinary, as the
 * official connector's element converter makes one byte array per element.
 */
public final class RowBinaryEntry implements Serializable {
  private static final long serialVersionUID = 1L;

  private final byte[] bytes;
  /** Failed attempts of the batch this entry heads; only the first entry's is used. */
  private transient int failures;

  /** Wraps the RowBinary bytes of one row (not copied). */
  public RowBinaryEntry(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Returns the row's RowBinary bytes (not a copy). */
  public byte[] bytes() {
    return bytes;
  }

  /** Counts one more failed attempt and returns the count. */
  int failed() {
    return ++failures;
  }

  /** Writes entries into checkpoints as their length and bytes. */
  static final class StateSerializer extends AsyncSinkWriterStateSerializer<RowBinaryEntry> {
    @Override
    protected void serializeRequestToStream(RowBinaryEntry entry, DataOutputStream out)
        throws IOException {
      out.writeInt(entry.bytes.length);
      out.write(entry.bytes);
    }

    @Override
    protected RowBinaryEntry deserializeRequestFromStream(long size, DataInputStream in)
        throws IOException {
      byte[] b = new byte[in.readInt()];
      in.readFully(b);
      return new RowBinaryEntry(b);
    }

    @Override
    public int getVersion() {
      return 1;
    }
  }
}
