package dev.handoff.flink;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class SqlQuickStart {
  public static void main(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : "http://127.0.0.1:8123";
    TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
    t.executeSql("CREATE TABLE visits_gen (id BIGINT, page STRING) WITH ("
        + " 'connector' = 'datagen', 'number-of-rows' = '100000',"
        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000')");
    t.executeSql("CREATE TABLE visits (id BIGINT, page STRING) WITH ("
        + " 'connector' = 'handoff-clickhouse', 'url' = '" + url + "',"
        + " 'table' = 'shop.visits', 'format' = 'native')");
    t.executeSql("INSERT INTO visits SELECT id, page FROM visits_gen").await();
  }
}
