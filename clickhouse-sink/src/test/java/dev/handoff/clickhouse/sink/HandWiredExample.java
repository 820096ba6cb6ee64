package dev.handoff.clickhouse.sink;

import dev.handoff.api.ChunkConfig;
import dev.handoff.api.Envelope;
import dev.handoff.api.RecordMeta;
import dev.handoff.api.RoutingKeys;
import dev.handoff.api.TableSchema;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.clickhouse.http.ClickHouseHttp;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions;
import dev.handoff.clickhouse.row.RowAccessors;
import dev.handoff.core.Chain;
import dev.handoff.core.ChainReport;
import dev.handoff.core.InflightBudget;
import dev.handoff.core.Providers;
import dev.handoff.core.Routers;
import dev.handoff.core.ShardQueues;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.Source;
import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import dev.handoff.core.sink.SinkWorkers;
import dev.handoff.core.sink.WorkersReport;
import java.time.Duration;
import java.util.Map;

public class HandWiredExample {
  public static long run(String url, String database) throws Exception {
    try (ClickHouseHttp http = ClickHouseHttp.create(ClickHouseHttpOptions.builder().url(url).build())) {
      TableSchema schema = http.schema(database, "events");           // (id UInt64, customer String)
      RowEncoder<Object[]> encoder = Providers.encoder("rowbinary")   // the same format ...
          .create(schema, RowAccessors.objectArray(), Map.of());
      InsertWriter writer = http.writer(database, "events", schema, "RowBinary"); // ... twice

      ShardQueues queues = new ShardQueues(4, 8);                     // 4 shards, 8 chunks each
      InflightBudget budget = new InflightBudget(64L << 20);          // pull no more at 64 MiB
      SinkHandoff<Object[]> stage = SinkHandoff.builder(encoder, queues)
          .router(Routers.keyHash())
          .budget(budget)                                             // the chain reads it here
          .config(ChunkConfig.defaults().withTargetBytes(64 * 1024))
          .build();
      SinkWorkers workers = SinkWorkers.builder(queues, budget, writer).build();
      workers.start();                                                // or every chunk fails

      SourceAcks acks = new SourceAcks("events");                     // checkpoints of one source
      long[] next = {0};
      Source<Object[]> source = out -> {
        if (next[0] == 10_000) {
          return false;                                               // exhausted
        }
        SourceBatch batch = acks.begin();
        for (int i = 0; i < 1_000; i++, next[0]++) {
          String customer = "customer-" + next[0] % 13;
          out.push(new Envelope<>(new Object[] {next[0], customer},
              new RecordMeta(System.currentTimeMillis(), RoutingKeys.of(customer)), batch));
        }
        batch.complete();
        return true;
      };
      ChainReport pulled = Chain.builder(source, stage).build().run(); // closes the stage
      WorkersReport written = workers.shutdown(Duration.ofSeconds(30));
      if (!pulled.clean() || !written.drained()) {
        throw new IllegalStateException(pulled + " " + written);
      }
      return acks.checkpoint();                                       // highest batch delivered
    }
  }
}
