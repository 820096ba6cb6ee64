package dev.handoff.flink;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A metric reporter that keeps every metric of the MiniCluster by its full identifier (also after it
 * was removed), so tests
 * read the sink's metrics as a user's reporter would.
 */
public final class CapturingReporter implements MetricReporter, MetricReporterFactory {
  static final Map<String, Metric> METRICS = new ConcurrentHashMap<>();

  /** Returns a configuration that installs this reporter. */
  static Configuration install(Configuration conf) {
    conf.setString("metrics.reporter.capture.factory.class", CapturingReporter.class.getName());
    return conf;
  }

  @Override
  public MetricReporter createMetricReporter(Properties properties) {
    return this;
  }

  @Override
  public void open(MetricConfig config) {}

  @Override
  public void close() {}

  @Override
  public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
    METRICS.put(group.getMetricIdentifier(name), metric);
  }

  /** Keeps the metric: tests read a job's counters after it finished. */
  @Override
  public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {}

  /** Returns the current values of the metrics whose identifier contains all of {@code parts}. */
  static List<Long> values(String... parts) {
    return METRICS.entrySet().stream()
        .filter(e -> {
          for (String p : parts) {
            if (!e.getKey().contains(p)) {
              return false;
            }
          }
          return true;
        })
        .map(e -> value(e.getValue()))
        .collect(Collectors.toList());
  }

  /** Returns the sum of the metrics named {@code name} of the job named {@code job}. */
  static long metric(String job, String name) {
    return METRICS.entrySet().stream()
        .filter(e -> e.getKey().contains(job) && e.getKey().endsWith("." + name))
        .mapToLong(e -> value(e.getValue())).sum();
  }

  /** Returns the sum of {@link #values}. */
  static long sum(String... parts) {
    return values(parts).stream().mapToLong(Long::longValue).sum();
  }

  private static long value(Metric m) {
    if (m instanceof Counter c) {
      return c.getCount();
    }
    if (m instanceof Gauge<?> g && g.getValue() instanceof Number n) {
      return n.longValue();
    }
    return -1;
  }
}
