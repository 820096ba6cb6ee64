package dev.handoff.benchmarks.stage;

import dev.handoff.benchmarks.encode.Contenders;
import dev.handoff.benchmarks.encode.Workload;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Client-v2's contenders of the encode benchmarks ({@link Contenders}) on the rows of {@link
 * StageBenchmark}, so the stage is compared with them in one run. A class of its own because
 * they have no format to vary: under {@code StageBenchmark}'s {@code format} parameter each
 * would run twice. The setup checks that both write the bytes of our RowBinary encoder.
 */
@State(Scope.Thread)
@Fork(jvmArgs = {RowLayout.HEAP, RowLayout.HEAP_MIN, RowLayout.YOUNG})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(Workload.ROWS)
public class StageClientV2Benchmark {
  /** The rows, as in {@link StageBenchmark#schema}. */
  @Param({"narrow", "wide", "fixedWidth"})
  public String schema;

  private Contenders contenders;

  /** Generates the rows and checks that the contenders agree on them. */
  @Setup
  public void setup() {
    contenders = new Contenders(StageBenchmark.workload(schema));
    contenders.checkEquivalent();
    RowLayout.tenure();
  }

  /** client-v2's RowBinaryFormatWriter: setValue per column, commitRow per row. */
  @Benchmark
  public int clientV2Writer() {
    return contenders.clientV2Writer();
  }

  /** client-v2's RowBinaryFormatSerializer, typed calls written by hand per schema. */
  @Benchmark
  public int clientV2Serializer() {
    return contenders.clientV2Serializer();
  }
}
