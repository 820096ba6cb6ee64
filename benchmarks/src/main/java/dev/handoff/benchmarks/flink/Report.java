package dev.handoff.benchmarks.flink;

import dev.handoff.benchmarks.flink.FlinkSinkBenchmark.Contender;
import dev.handoff.benchmarks.flink.FlinkSinkBenchmark.Run;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Prints the Flink benchmark's results as Markdown: per contender the medians over rounds (rows
 * per second, client and server CPU per row) and each round's rows per second; then, per handoff
 * contender, the medians of its per-round ratios to the baseline (a ratio within one round is
 * less exposed to the machine's load changing between rounds).
 */
final class Report {
  private Report() {}

  static void print(Map<Contender, List<Run>> runs, long rows, String load) {
    ToDoubleFunction<Run> rate = r -> rows / (r.wallNanos() / 1e9);
    ToDoubleFunction<Run> client = r -> (double) r.clientCpuNanos() / rows;
    ToDoubleFunction<Run> server = r -> (double) r.serverCpuNanos() / rows;
    System.out.println("| contender | rows/s (median) | rounds (M rows/s) | client CPU ns/row |"
        + " server CPU ns/row |");
    System.out.println("| --- | ---: | --- | ---: | ---: |");
    for (Map.Entry<Contender, List<Run>> e : runs.entrySet()) {
      StringBuilder each = new StringBuilder();
      for (Run r : e.getValue()) {
        each.append(each.length() == 0 ? "" : ", ")
            .append(String.format(Locale.ROOT, "%.2f", rate.applyAsDouble(r) / 1e6));
      }
      System.out.printf(Locale.ROOT, "| %s | %,.0f | %s | %.0f | %.0f |%n", e.getKey().label,
          median(e.getValue(), rate), each, median(e.getValue(), client),
          median(e.getValue(), server));
    }
    List<Run> base = runs.get(Contender.BASELINE);
    if (base != null) {
      System.out.println();
      System.out.println("| handoff ÷ baseline (median of per-round ratios) | rows/s |"
          + " client CPU per row | server CPU per row |");
      System.out.println("| --- | ---: | ---: | ---: |");
      for (Contender c : List.of(Contender.NATIVE, Contender.ROWBINARY)) {
        List<Run> mine = runs.get(c);
        if (mine != null) {
          System.out.printf(Locale.ROOT, "| %s | %.2fx | %.2fx | %.2fx |%n", c.label,
              ratio(mine, base, rate), ratio(mine, base, client), ratio(mine, base, server));
        }
      }
    }
    System.out.println();
    System.out.println("load average (1 min) at the end: " + load);
  }

  private static double ratio(List<Run> mine, List<Run> base, ToDoubleFunction<Run> f) {
    List<Double> ratios = new ArrayList<>();
    for (int i = 0; i < Math.min(mine.size(), base.size()); i++) {
      ratios.add(f.applyAsDouble(mine.get(i)) / f.applyAsDouble(base.get(i)));
    }
    return medianOf(ratios);
  }

  private static double median(List<Run> runs, ToDoubleFunction<Run> f) {
    List<Double> v = new ArrayList<>();
    for (Run r : runs) {
      v.add(f.applyAsDouble(r));
    }
    return medianOf(v);
  }

  private static double medianOf(List<Double> values) {
    List<Double> v = new ArrayList<>(values);
    Collections.sort(v);
    int n = v.size();
    return n == 0 ? Double.NaN : n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }
}
