package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.Frame;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Request bodies for {@link Http1Client}: frames written as they are, without a copy, a
 * compressed body's buffers, or a byte array. Each may be written any number of times (a retry
 * sends the same bytes again).
 */
final class Bodies {
  private Bodies() {}

  /** A body of a length known before it is written. */
  private abstract static class Sized implements Http1Client.Body {
    private final long length;

    Sized(long length) {
      this.length = length;
    }

    @Override
    public final long length() {
      return length;
    }
  }

  /** Returns the frames, concatenated, as a body of {@code bytes} bytes. */
  static Http1Client.Body ofFrames(List<Frame> frames, long bytes) {
    return new Sized(bytes) {
      @Override
      public void writeTo(OutputStream out) throws IOException {
        for (Frame f : frames) {
          f.writeTo(out);
        }
      }
    };
  }

  /** Returns the buffers' remaining bytes, concatenated, as a body of {@code bytes} bytes. */
  static Http1Client.Body ofBuffers(List<ByteBuffer> buffers, long bytes) {
    return new Sized(bytes) {
      @Override
      public void writeTo(OutputStream out) throws IOException {
        byte[] scratch = new byte[(int) Math.min(64 * 1024, Math.max(1, bytes))];
        for (ByteBuffer b : buffers) {
          ByteBuffer view = b.duplicate();
          while (view.hasRemaining()) {
            int n = Math.min(scratch.length, view.remaining());
            view.get(scratch, 0, n);
            out.write(scratch, 0, n);
          }
        }
      }
    };
  }

  /** Returns {@code bytes} as a body. */
  static Http1Client.Body ofBytes(byte[] bytes) {
    return new Sized(bytes.length) {
      @Override
      public void writeTo(OutputStream out) throws IOException {
        out.write(bytes);
      }
    };
  }
}
