package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.handoff.core.ChunkPool;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code handoff ingest} against a stalled server: a loopback socket that accepts connections and
 * never reads or answers. In-flight bytes stay under the budget plus one chunk array per shard
 * and one more (the chunk that crosses the budget), the command ends by its deadline with a
 * non-zero exit, and the checkpoint acknowledges nothing.
 */
final class IngestStallTest {

  @TempDir
  Path dir;

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void stalledServer_boundsInflightBytes_andEndsByTheDeadline_acknowledgingNothing()
      throws Exception {
    Path input = MixedRows.write(dir.resolve("in.jsonl"), 100_000);
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket stalled = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> {
        while (!stalled.isClosed()) {
          try {
            held.add(stalled.accept()); // never read, never answer
          } catch (IOException e) {
            return;
          }
        }
      }, "stalled-server");
      acceptor.setDaemon(true);
      acceptor.start();
      long budget = 1L << 20;
      int chunk = 64 << 10;
      int shards = 2;
      Ingest.Settings settings = IngestOptionsTest.settings("ingest", "--url",
          "http://127.0.0.1:" + stalled.getLocalPort(), "--table", "db.t", "--schema",
          MixedRows.COLUMNS, "--input", input.toString(), "--budget", "1MiB", "--chunk-bytes",
          "64KiB", "--shards", "2", "--batch-rows", "200", "--request-timeout", "1s",
          "--retry-max-elapsed", "3s", "--max-replays", "1", "--deadline", "8s",
          "--checkpoint", dir.resolve("cp.json").toString(), "--no-progress");
      AtomicLong maxInflight = new AtomicLong();
      AtomicLong samples = new AtomicLong();
      // The run pools its chunk arrays, so in flight is always a whole number of them.
      long array = ChunkPool.arrayLengthFor(chunk);
      AtomicLong notWholeArrays = new AtomicLong();
      StringWriter out = new StringWriter();
      long t0 = System.nanoTime();

      int exit = new Ingest(settings, new PrintWriter(new StringWriter()), s -> {
        samples.incrementAndGet();
        maxInflight.accumulateAndGet(s.inflightBytes(), Math::max);
        if (s.inflightBytes() % array != 0) {
          notWholeArrays.incrementAndGet();
        }
      }).run(new PrintWriter(out, true));

      double secs = (System.nanoTime() - t0) / 1e9;
      for (Socket s : held) {
        s.close();
      }
      assertThat(exit).as(out.toString()).isEqualTo(Main.ORACLE_FAILED);
      assertThat(secs).as("ends within the deadline plus its graces").isLessThan(20);
      assertThat(samples.get()).isGreaterThan(10);
      // A sealed chunk charges its pooled array. Reading stops once the chunks charged reach the
      // budget (the last of them may cross it), and each shard then seals its open chunk.
      assertThat(notWholeArrays.get()).as("samples of in-flight bytes not a whole number of"
          + " " + array + "-byte arrays").isZero();
      assertThat(maxInflight.get()).as("in-flight bytes")
          .isPositive().isLessThanOrEqualTo(budget + (shards + 1L) * array);
      JsonNode s = MixedRows.summary(out.toString());
      assertThat(s.get("status").asText()).isEqualTo("incomplete");
      assertThat(s.get("rowsWritten").asLong()).isZero();
      assertThat(s.get("checkpoint").get("offset").asLong()).as("nothing acknowledged")
          .isZero();
      assertThat(new CheckpointFile(dir.resolve("cp.json")).read()
          .map(CheckpointFile.Position::offset).orElse(0L)).isZero();
      assertThat(held).as("the workers did connect").isNotEmpty();
    }
  }
}
