package dev.handoff.flink;

import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.flink.HandoffSink;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class FlinkQuickStart {
  /** A row of: CREATE TABLE shop.clicks (id UInt64, page String, ms UInt32) ENGINE = ... */
  public record Click(long id, String page, long ms) {}

  public static void main(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : "http://127.0.0.1:8123";
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(10_000); // each checkpoint waits until its rows are in ClickHouse
    env.fromSource(new DataGeneratorSource<>(i -> new Click(i, "/p/" + i % 50, i % 1000),
            1_000_000, TypeInformation.of(Click.class)), WatermarkStrategy.noWatermarks(), "clicks")
        .sinkTo(HandoffSink.forRecords(Click.class)
            .setUrl(url)
            .setTable("shop", "clicks")
            .setFormat(InsertFormat.NATIVE)
            .build());
    env.execute("clicks to ClickHouse");
  }
}
