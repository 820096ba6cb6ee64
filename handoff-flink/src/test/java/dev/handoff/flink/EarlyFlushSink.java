package dev.handoff.flink;

import java.io.IOException;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A broken sink for the mutation check: its writer's flush returns at once before a checkpoint
 * (only the end of input is flushed), as a writer that does not wait for its workers would.
 */
final class EarlyFlushSink<T> implements Sink<T> {
  private final Sink<T> real;

  EarlyFlushSink(Sink<T> real) {
    this.real = real;
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
    SinkWriter<T> w = real.createWriter(context);
    return new SinkWriter<T>() {
      @Override
      public void write(T element, Context c) throws IOException, InterruptedException {
        w.write(element, c);
      }

      @Override
      public void flush(boolean endOfInput) throws IOException, InterruptedException {
        if (endOfInput) {
          w.flush(true);
        }
      }

      @Override
      public void close() throws Exception {
        w.close();
      }
    };
  }
}
