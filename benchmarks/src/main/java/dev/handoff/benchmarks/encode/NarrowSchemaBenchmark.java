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
 * Encode throughput on the narrow schema (DateTime, UInt64, Float64, UInt8, String ~12 bytes,
 * String ~40 bytes; see {@link NarrowWorkload}): 100,000 pre-generated rows per operation, so
 * the score is rows per second and {@code gc.alloc.rate.norm / 100000} is bytes allocated per
 * row. All five contenders (see {@link Contenders}) run on the same rows in the same run; the
 * setup checks that the three RowBinary contenders write identical bytes.
 *
 * <p>Run (from the repository root, after {@code mvn -B -q -pl benchmarks -am package
 * -DskipTests}):
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar NarrowSchemaBenchmark -prof gc -f 1 -wi 3 -w 2s -i 5 -r 2s
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(Workload.ROWS)
public class NarrowSchemaBenchmark {
  private Contenders contenders;

  @Setup
  public void setup() {
    contenders = new Contenders(Workload.narrow(Workload.ROWS, 42));
    contenders.checkEquivalent();
  }

  /** Ours: the rowbinary encoder over {@code RowAccessors.objectArray()}. */
  @Benchmark
  public int handoffRowBinary() {
    return contenders.handoff();
  }

  /**
   * Ours: the clickhouse-native encoder over {@code RowAccessors.objectArray()}, a block sealed
   * per 64 KiB of buffered columns (see {@link Contenders#handoffNative}).
   */
  @Benchmark
  public int handoffNative() {
    return contenders.handoffNative();
  }

  /** client-v2's RowBinaryFormatWriter (setValue per column, commitRow per row). */
  @Benchmark
  public int clientV2Writer() {
    return contenders.clientV2Writer();
  }

  /** client-v2's RowBinaryFormatSerializer, typed calls written by hand. */
  @Benchmark
  public int clientV2Serializer() {
    return contenders.clientV2Serializer();
  }

  /** Jackson's JsonGenerator writing JSONEachRow. */
  @Benchmark
  public int jacksonJsonEachRow() {
    return contenders.jackson();
  }

  /** System.arraycopy of as many bytes as ours writes: the memory-bandwidth ceiling. */
  @Benchmark
  public int arraycopyCeiling() {
    return contenders.arraycopy();
  }
}
