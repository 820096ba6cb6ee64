package dev.handoff.benchmarks.encode;

import org.openjdk.jmh.annotations.Param;

/**
 * Encode throughput on the wide schema (20 columns of Int32, Int64, Float64, String,
 * Nullable(String), Array(Int32), UUID, Decimal64(4) and Date; see {@link WideWorkload}), every
 * contender of {@link SchemaBenchmark} on the same rows in the same run.
 *
 * <p>{@code decimals} picks the Java form of the two Decimal64(4) columns, the same numbers
 * either way: {@code DOUBLE} or {@code BIG_DECIMAL} (scale 4). Our conversion writes both
 * without allocating; client-v2 needs a BigDecimal, so the Double form costs it a conversion.
 *
 * <p>Run (from the repository root, after {@code mvn -B -q -pl benchmarks -am package
 * -DskipTests}):
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar WideSchemaBenchmark -prof gc -f 1 -wi 3 -w 2s -i 5 -r 2s
 * </pre>
 *
 * <p>Only the Double form: add {@code -p decimals=DOUBLE}.
 */
public class WideSchemaBenchmark extends SchemaBenchmark {
  /** The Java form of the Decimal64(4) values. */
  @Param({"DOUBLE", "BIG_DECIMAL"})
  public Workload.DecimalForm decimals;

  @Override
  protected Workload workload() {
    return Workload.wide(Workload.ROWS, 42, decimals);
  }
}
