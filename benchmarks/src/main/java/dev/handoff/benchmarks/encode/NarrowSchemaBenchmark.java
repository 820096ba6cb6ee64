package dev.handoff.benchmarks.encode;

/**
 * Encode throughput on the narrow schema (DateTime, UInt64, Float64, UInt8, String ~12 bytes,
 * String ~40 bytes; see {@link NarrowWorkload}), every contender of {@link SchemaBenchmark} on
 * the same rows in the same run.
 *
 * <p>Run (from the repository root, after {@code mvn -B -q -pl benchmarks -am package
 * -DskipTests}):
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar NarrowSchemaBenchmark -prof gc -f 1 -wi 3 -w 2s -i 5 -r 2s
 * </pre>
 */
public class NarrowSchemaBenchmark extends SchemaBenchmark {
  @Override
  protected Workload workload() {
    return Workload.narrow(Workload.ROWS, 42);
  }
}
