package dev.handoff.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The DataStream sink on a MiniCluster against a real ClickHouse 18.16 server. */
class FlinkSinkServerTest {

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  @ParameterizedTest
  @EnumSource(InsertFormat.class)
  void writesAMillionRowsAtParallelismTwoValueByValue(InsertFormat format) throws Exception {
    ClickHouseServer server = ClickHouseServer.shared();
    String db = server.uniqueDatabase("flink");
    String table = db + ".events";
    server.execute("CREATE TABLE " + table + " " + Event.COLUMNS);
    long n = 1_000_000;

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.fromSource(new DataGeneratorSource<>(Event::of, n, TypeInformation.of(Event.class)),
            WatermarkStrategy.noWatermarks(), "events")
        .sinkTo(HandoffSink.forRecords(Event.class).setUrl(server.httpUrl())
            .setTable(db, "events").setFormat(format).build());
    env.execute("million-" + format);

    assertThat(server.query("SELECT count(), uniqExact(id), min(id), max(id) FROM " + table))
        .isEqualTo("1000000\t1000000\t0\t999999\n");
    assertThat(server.query(Event.wrongRows(table))).isEqualTo("0\n");
  }
}
