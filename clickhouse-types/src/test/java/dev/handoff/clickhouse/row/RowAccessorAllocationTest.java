package dev.handoff.clickhouse.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.clickhouse.json.JsonRows;
import dev.handoff.testkit.Allocations;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * Reads primitive fields a million times and checks, with the JVM's per-thread allocation counter,
 * that the reads allocate (next to) nothing. Boxing would cost 16 bytes per read, 16 MB in all; the
 * bound leaves room for the counter's own noise. Skipped where the counter is unavailable.
 */
final class RowAccessorAllocationTest {
  private static final int READS = 1_000_000;
  private static final long BOUND = 256 * 1024;

  private record Reading(long id, double value, boolean ok, int small) {}

  private static <T> long sum(RowAccessor<T> acc, T row) {
    long sum = 0;
    for (int i = 0; i < READS; i++) {
      if (acc.kind(row, 0) == ValueKind.LONG) {
        sum += acc.getLong(row, 0);
      }
      if (acc.kind(row, 1) == ValueKind.DOUBLE) {
        sum += (long) acc.getDouble(row, 1);
      }
      if (acc.kind(row, 2) == ValueKind.BOOLEAN && acc.getBoolean(row, 2)) {
        sum++;
      }
      sum += acc.getLong(row, 3);
    }
    return sum;
  }

  private static <T> long allocationOf(LongSupplier counter, RowAccessor<T> acc, T row) {
    sum(acc, row);
    long before = counter.getAsLong();
    long sum = sum(acc, row);
    long allocated = counter.getAsLong() - before;
    assertThat(sum).isNotZero();
    return allocated;
  }

  @Test
  void primitiveReads_doNotAllocate() throws IOException {
    LongSupplier counter = Allocations.currentThread();
    assumeTrue(counter != null, "no per-thread allocation counter here");
    TableSchema schema = new TableSchema(List.of(new ColumnSpec("id", "UInt64"),
        new ColumnSpec("value", "Float64"), new ColumnSpec("ok", "Bool"),
        new ColumnSpec("small", "Int32")));
    Object[] array = {1_000_000_007L, 12345.5, true, 70_000};
    long[] longs = {1_000_000_007L, 3, 5, 70_000};

    assertThat(allocationOf(counter, RowAccessors.objectArray(), array))
        .as("Object[] rows").isLessThan(BOUND);
    assertThat(allocationOf(counter, RowAccessors.list(), List.of(array)))
        .as("List rows").isLessThan(BOUND);
    assertThat(allocationOf(counter, RowAccessors.records(Reading.class, schema,
        MethodHandles.lookup()), new Reading(1_000_000_007L, 12345.5, true, 70_000)))
        .as("record rows").isLessThan(BOUND);
    assertThat(allocationOf(counter, RowAccessors.values(), longs))
        .as("long[] containers").isLessThan(BOUND);
    assertThat(allocationOf(counter, JsonRows.accessor(schema),
        new ObjectMapper().readTree("{\"id\":1000000007,\"value\":12345.5,\"ok\":true,"
            + "\"small\":70000}")))
        .as("JSON rows").isLessThan(BOUND);
  }

  @Test
  void counter_seesBoxing() {
    LongSupplier counter = Allocations.currentThread();
    assumeTrue(counter != null, "no per-thread allocation counter here");
    Object[] sink = new Object[1024];
    long before = counter.getAsLong();
    for (int i = 0; i < READS; i++) {
      sink[i & 1023] = Long.valueOf(1_000_000_007L + i);
    }
    assertThat(counter.getAsLong() - before).as("a million boxes").isGreaterThan(8L * READS);
    assertThat(sink[0]).isNotNull();
  }
}
