package dev.handoff.simulator.report;

import java.util.Objects;

/**
 * One time series over simulated time, sampled by the engine (for example the queue depth of shard
 * 2, or the bytes held by the budget).
 *
 * @param name what is measured, with its shard when it has one (for example {@code "shard 2"})
 * @param group the chart it belongs to: {@code "queue depth"}, {@code "parked chunks"}, {@code
 *     "budget bytes"}, {@code "checkpoint"} (one series per source), or another name the engine adds
 * @param ticks the sample times, ascending
 * @param values the sampled values, one per tick
 */
public record Series(String name, String group, long[] ticks, long[] values) {

  /** Checks that there is one value per tick. */
  public Series {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(group, "group");
    if (ticks.length != values.length) {
      throw new IllegalArgumentException("series " + name + ": " + ticks.length + " ticks but "
          + values.length + " values");
    }
  }
}
