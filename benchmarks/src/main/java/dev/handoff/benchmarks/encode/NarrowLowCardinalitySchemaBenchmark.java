package dev.handoff.benchmarks.encode;

import org.openjdk.jmh.annotations.Param;

/**
 * Encode throughput on the narrow schema with {@code s12} declared {@code
 * LowCardinality(String)} (200 distinct values; see {@link NarrowWorkload#lowCardinality}):
 * what the Native encoder's per-block dictionary costs next to RowBinary, which writes the
 * column as a plain String. {@code instances=SHARED} rows hold the pool's own String instances,
 * {@code COPIES} rows a fresh copy each.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar \
 *   'NarrowLowCardinalitySchemaBenchmark\.(handoffNative|handoffRowBinary)$' \
 *   -prof gc -f 2 -wi 3 -w 2s -i 5 -r 2s
 * </pre>
 */
public class NarrowLowCardinalitySchemaBenchmark extends SchemaBenchmark {
  /** Where the LowCardinality values come from. */
  public enum Instances {
    /** Every row holds one of the pool's String instances. */
    SHARED,
    /** Every row holds its own copy, its hash not computed yet. */
    COPIES
  }

  @Param
  public Instances instances;

  @Override
  protected Workload workload() {
    return Workload.narrowLowCardinality(Workload.ROWS, 42, instances == Instances.SHARED);
  }
}
