package dev.handoff.benchmarks.encode;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Encode throughput on a fixed-width-only schema (UInt64, Int32, Float64, DateTime, UInt8, Date;
 * see {@link FixedWidthWorkload}): 100,000 pre-generated rows per operation, so the score is rows
 * per second and {@code gc.alloc.rate.norm} is bytes allocated per row. {@link #arraycopy} copies
 * as many bytes as {@link #handoffNative} writes per operation: the memory-bandwidth ceiling the
 * Native encoder is measured against. {@link #readValues} reads every value and writes nothing:
 * the ceiling for any encoder of these {@code Object[]} rows.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar FixedWidthSchemaBenchmark -prof gc -f 1 -wi 2 -w 1s -i 3 -r 1s
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(Workload.ROWS)
public class FixedWidthSchemaBenchmark {
  private Contenders contenders;
  private Object[][] rows;

  @Setup
  public void setup() {
    contenders = new Contenders(new FixedWidthWorkload(Workload.ROWS, 42));
    contenders.checkEquivalent();
    rows = contenders.workload().rows();
  }

  /** Ours: the native encoder, a block sealed per 64 KiB of buffered columns. */
  @Benchmark
  public int handoffNative() {
    return contenders.handoffNative();
  }

  /** Ours: the rowbinary encoder. */
  @Benchmark
  public int handoffRowBinary() {
    return contenders.handoff();
  }

  /** Reads the six values of every row as an encoder must, and writes nothing. */
  @Benchmark
  public long readValues() {
    return FixedWidthWorkload.readValues(rows);
  }

  /** System.arraycopy of as many bytes as the Native encoder writes per operation. */
  @Benchmark
  public int arraycopy() {
    return contenders.nativeArraycopy();
  }
}
