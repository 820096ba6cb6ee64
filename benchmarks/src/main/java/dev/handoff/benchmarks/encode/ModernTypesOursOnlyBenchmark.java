package dev.handoff.benchmarks.encode;

import org.openjdk.jmh.annotations.Param;

/**
 * Encode cost per value of the types of ClickHouse 20-26 that client-v2 0.10.0 does not write
 * ({@code Unsupported data type} for BFloat16, QBit and SimpleAggregateFunction): ours alone, in
 * the same run as {@link ModernTypesBenchmark}.
 */
public class ModernTypesOursOnlyBenchmark extends ModernTypeCost {
  /** The column's type. */
  @Param({"BFloat16", "QBit(Float32, 8)", "SimpleAggregateFunction(sum, UInt64)"})
  public String type;

  @Override
  protected String type() {
    return type;
  }
}
