package dev.handoff.clickhouse.sink;

import dev.handoff.api.FlowControl;
import dev.handoff.clickhouse.sink.ClickHouseSink;
import java.time.Duration;

public class QuickStart {
  /** A row of: CREATE TABLE shop.orders (id UInt64, customer String, amount Float64) ... */
  public record Order(long id, String customer, double amount) {}

  public static void main(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : "http://127.0.0.1:8123";
    try (ClickHouseSink<Order> sink = ClickHouseSink.forRecords(Order.class)
        .url(url)
        .table("shop", "orders")
        .build()) {
      for (long id = 0; id < 100_000; id++) {
        if (sink.push(new Order(id, "customer-" + id % 100, id * 0.25)) == FlowControl.BLOCKED) {
          sink.awaitRoom(Duration.ofSeconds(30)); // in flight: 64 MiB by default
        }
      }
    } // close() writes what is left, and throws DeliveryException if a row was not delivered
  }
}
