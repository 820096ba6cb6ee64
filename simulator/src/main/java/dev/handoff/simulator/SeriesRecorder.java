package dev.handoff.simulator;

import dev.handoff.simulator.report.Series;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Samples the charts' time series over simulated time: queue depth and parked chunks per shard,
 * the budget's bytes in flight, each source's checkpoint (in records committed), and the sink's
 * write attempts, retries and dead-lettered rows so far. Keeps at
 * most {@value #MAX_POINTS} points per series by halving the resolution when full.
 */
final class SeriesRecorder {
  static final int MAX_POINTS = 1024;

  private final int shards;
  private final int sources;
  private final int width;
  private long[] ticks = new long[MAX_POINTS];
  private final long[][] values;
  private int size;
  private long interval = 1;
  private long next;

  SeriesRecorder(int shards, int sources) {
    this.shards = shards;
    this.sources = sources;
    this.width = 2 * shards + 1 + sources + 3;
    this.values = new long[width][MAX_POINTS];
  }

  boolean due(long tick) {
    return tick >= next;
  }

  /** Records one sample; {@code row} holds the values in series order. */
  void sample(long tick, long[] row) {
    if (size == MAX_POINTS) {
      for (int i = 0; i < MAX_POINTS / 2; i++) {
        ticks[i] = ticks[2 * i];
        for (int k = 0; k < width; k++) {
          values[k][i] = values[k][2 * i];
        }
      }
      size = MAX_POINTS / 2;
      interval *= 2;
    }
    ticks[size] = tick;
    for (int k = 0; k < width; k++) {
      values[k][size] = row[k];
    }
    size++;
    next = tick + interval;
  }

  int width() {
    return width;
  }

  List<Series> series() {
    List<Series> out = new ArrayList<>(width);
    long[] t = Arrays.copyOf(ticks, size);
    int k = 0;
    for (int s = 0; s < shards; s++) {
      out.add(new Series("shard " + s, "queue depth", t, Arrays.copyOf(values[k++], size)));
    }
    for (int s = 0; s < shards; s++) {
      out.add(new Series("shard " + s, "parked chunks", t, Arrays.copyOf(values[k++], size)));
    }
    out.add(new Series("in flight", "budget bytes", t, Arrays.copyOf(values[k++], size)));
    for (int s = 0; s < sources; s++) {
      out.add(new Series("source " + s, "checkpoint", t, Arrays.copyOf(values[k++], size)));
    }
    out.add(new Series("insert attempts", "sink writes", t, Arrays.copyOf(values[k++], size)));
    out.add(new Series("retries", "sink writes", t, Arrays.copyOf(values[k++], size)));
    out.add(new Series("dead-lettered rows", "sink writes", t,
        Arrays.copyOf(values[k++], size)));
    return out;
  }
}
