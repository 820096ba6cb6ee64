package dev.handoff.flink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * Reads the primitive columns of a binary row (the form Flink's runtime hands a sink) a million
 * times and checks, with the JVM's per-thread allocation counter, that the reads allocate (next
 * to) nothing: boxing would cost 16 bytes per read. Skipped where the counter is unavailable.
 */
final class RowDataAllocationTest {
  private static final int READS = 1_000_000;
  private static final long BOUND = 256 * 1024;

  private static long sum(RowAccessor<RowData> acc, RowData row) {
    long sum = 0;
    for (int i = 0; i < READS; i++) {
      for (int f = 0; f < 5; f++) {
        ValueKind k = acc.kind(row, f);
        sum += k == ValueKind.LONG ? acc.getLong(row, f)
            : k == ValueKind.DOUBLE ? (long) acc.getDouble(row, f)
            : acc.getBoolean(row, f) ? 1 : 0;
      }
    }
    return sum;
  }

  @Test
  void primitiveReads_allocateNothing() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    assumeTrue(threads instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) threads;
    assumeTrue(bean.getCurrentThreadAllocatedBytes() >= 0);
    RowType type = RowDataAccessorTest.rowType("a BIGINT, b INT, c DOUBLE, d BOOLEAN, e DATE");
    RowAccessor<RowData> acc = SchemaMatch.accessor(type, RowDataAccessorTest.schema(
        "a", "Int64", "b", "UInt32", "c", "Float64", "d", "UInt8", "e", "Date"), "db.t");
    RowData row = new RowDataSerializer(type)
        .toBinaryRow(GenericRowData.of(5L, 6, 7.5, true, 19_000)).copy();

    sum(acc, row); // warm up
    long before = bean.getCurrentThreadAllocatedBytes();
    long sum = sum(acc, row);
    long allocated = bean.getCurrentThreadAllocatedBytes() - before;

    assertThat(sum).isEqualTo(READS * (5L + 6 + 7 + 1 + 19_000));
    assertThat(allocated).as("bytes allocated by %s reads", 5 * READS).isLessThan(BOUND);
  }
}
