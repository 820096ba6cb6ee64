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
 * The six contenders of an encode benchmark (see {@link Contenders}), run on the rows of the
 * workload a subclass names: 100,000 pre-generated rows per operation, so the score is rows per
 * second and JMH's {@code gc.alloc.rate.norm} is already bytes allocated per row. The setup
 * checks that the three RowBinary contenders write identical bytes. JMH runs the inherited
 * benchmarks under each subclass's name ({@code NarrowSchemaBenchmark.handoffRowBinary}, ...).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(Workload.ROWS)
public abstract class SchemaBenchmark {
  private Contenders contenders;

  /** Returns the rows of this benchmark, generated once per trial. */
  protected abstract Workload workload();

  /** Generates the rows and checks that the contenders agree on them. */
  @Setup
  public void setup() {
    contenders = new Contenders(workload());
    contenders.checkEquivalent();
  }

  /** Ours: the rowbinary encoder over {@code RowAccessors.objectArray()}. */
  @Benchmark
  public int handoffRowBinary() {
    return contenders.handoff();
  }

  /**
   * Ours: the native encoder over {@code RowAccessors.objectArray()}, a block sealed
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
