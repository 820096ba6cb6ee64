package dev.handoff.simulator.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws one chart of the HTML report: the series of one group as step lines over simulated time,
 * with the run's fault markers as vertical lines behind them, axes with round tick values, and a
 * legend. Pure computation over the report's values: no randomness, no hash order, and numbers
 * formatted without the default locale, so the same report draws the same bytes.
 *
 * <p>Long series are downsampled deterministically so that a chart holds at most {@link
 * #MAX_POINTS_PER_CHART} points: each series gets an equal share, its samples are cut into
 * consecutive buckets by index, and each bucket keeps its first, lowest, highest and last sample,
 * so spikes survive. Fault markers that fall on the same pixel column and are of the same kind are
 * drawn as one line whose tooltip gives the count. Each fault kind has a colour and a glyph shape
 * ({@link #glyph}), drawn in a lane above the plot at every marker, so markers stay visible when a
 * series line covers them and kinds of similar colour stay apart. The workers' shutdown of each
 * lifetime is a shaded band, and the start of each lifetime after the first a dashed line.
 */
final class SvgChart {

  /** The most points a chart draws over all its series (at least 16 per series). */
  static final int MAX_POINTS_PER_CHART = 2_000;

  static final int WIDTH = 960;
  static final int HEIGHT = 276;
  private static final int LEFT = 72;
  private static final int RIGHT = 16;
  /** Room above the plot for the lane of fault glyphs. */
  private static final int TOP = 28;
  private static final int BOTTOM = 34;
  private static final int PLOT_W = WIDTH - LEFT - RIGHT;
  private static final int PLOT_H = HEIGHT - TOP - BOTTOM;

  /** Line colours of the series, cycled (with dashes on the second cycle). */
  static final String[] SERIES_COLOURS = {
      "#1f5fa8", "#d9730d", "#2e8b3a", "#b0302c", "#7251a8",
      "#8a5a3c", "#c2448f", "#5f6b73", "#9a9a12", "#1b9aaa"};

  /** Colours of the fault kinds, assigned in the order of the report's fault table. */
  static final String[] FAULT_COLOURS = {
      "#e0413a", "#f29e00", "#8e44ad", "#16a085", "#c0392b", "#2c3e50",
      "#d35400", "#27ae60", "#7f8c8d", "#a93226", "#1f618d", "#b7950b"};

  /** Glyph shapes of the fault kinds, cycled with a period prime to the colours'. */
  static final String[] GLYPHS = {
      "triangle", "circle", "square", "diamond", "triangle-up", "cross", "bar"};

  private SvgChart() {}

  /**
   * Appends one chart as a {@code figure}: caption, SVG and legend.
   *
   * @param out where the markup goes
   * @param group the group's name (the caption)
   * @param index the chart's position, for its element id
   * @param series the group's series, in report order
   * @param markers every fault marker of the run
   * @param faultColours colour per fault kind (its position also picks the kind's glyph)
   * @param lifetimes the run's process lifetimes, for the shutdown bands and lifetime starts
   * @param endTick the simulated time at the end of the run
   */
  static void render(StringBuilder out, String group, int index, List<Series> series,
      List<FaultMarker> markers, Map<String, String> faultColours, List<Lifetime> lifetimes,
      long endTick) {
    long minTick = 0;
    long maxTick = Math.max(endTick, 0);
    long minValue = 0;
    long maxValue = 0;
    int samples = 0;
    for (Series s : series) {
      samples += s.ticks().length;
      for (int i = 0; i < s.ticks().length; i++) {
        minTick = Math.min(minTick, s.ticks()[i]);
        maxTick = Math.max(maxTick, s.ticks()[i]);
        minValue = Math.min(minValue, s.values()[i]);
        maxValue = Math.max(maxValue, s.values()[i]);
      }
    }
    for (FaultMarker m : markers) {
      maxTick = Math.max(maxTick, m.tick());
    }
    for (Lifetime l : lifetimes) {
      maxTick = Math.max(maxTick, l.endTick());
    }
    if (maxTick == minTick) {
      maxTick = minTick + 1;
    }
    double step = niceStep(Math.max(1, (double) maxValue - minValue) / 4);
    double yLo = Math.floor(minValue / step) * step;
    double yHi = Math.max(Math.ceil(maxValue / step) * step, yLo + step);
    Scale scale = new Scale(minTick, maxTick, yLo, yHi);
    int budget = Math.max(16, MAX_POINTS_PER_CHART / Math.max(1, series.size()));

    out.append("<figure class=\"chart\" id=\"chart-").append(index).append("\">\n");
    out.append("<figcaption>").append(HtmlReport.escape(group)).append(" <span class=\"dim\">(")
        .append(series.size()).append(" series, ")
        .append(HtmlReport.count(samples)).append(" samples)</span></figcaption>\n");
    out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-group=\"")
        .append(HtmlReport.escape(group)).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
        .append(HEIGHT).append("\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
        .append("\" role=\"img\" aria-label=\"").append(HtmlReport.escape(group))
        .append(" over simulated time\">\n");
    out.append("<rect class=\"plot\" x=\"").append(LEFT).append("\" y=\"").append(TOP)
        .append("\" width=\"").append(PLOT_W).append("\" height=\"").append(PLOT_H)
        .append("\"/>\n");
    axes(out, scale, step);
    boolean[] drawnPhases = phases(out, scale, lifetimes);
    Map<String, Integer> drawnKinds = markers(out, scale, markers, faultColours, index);
    for (int i = 0; i < series.size(); i++) {
      line(out, scale, series.get(i), i, budget, maxTick);
    }
    out.append("</svg>\n");
    legend(out, series, drawnKinds, faultColours, drawnPhases);
    out.append("</figure>\n");
  }

  /**
   * Returns the indices of the samples a chart draws for one series: all of them when they fit
   * the budget, else the first, lowest, highest and last of each of {@code budget / 4}
   * consecutive buckets, ascending and without repeats.
   */
  static int[] downsample(long[] values, int budget) {
    int n = values.length;
    if (n <= budget) {
      int[] all = new int[n];
      for (int i = 0; i < n; i++) {
        all[i] = i;
      }
      return all;
    }
    int buckets = Math.max(1, budget / 4);
    int[] kept = new int[buckets * 4];
    int size = 0;
    for (int b = 0; b < buckets; b++) {
      int lo = (int) ((long) b * n / buckets);
      int hi = (int) ((long) (b + 1) * n / buckets);
      int min = lo;
      int max = lo;
      for (int i = lo + 1; i < hi; i++) {
        if (values[i] < values[min]) {
          min = i;
        }
        if (values[i] > values[max]) {
          max = i;
        }
      }
      int[] four = {lo, Math.min(min, max), Math.max(min, max), hi - 1};
      for (int k : four) {
        if (size == 0 || kept[size - 1] < k) {
          kept[size++] = k;
        }
      }
    }
    int[] out = new int[size];
    System.arraycopy(kept, 0, out, 0, size);
    return out;
  }

  private static void axes(StringBuilder out, Scale scale, double step) {
    out.append("<g class=\"axes\">\n");
    for (double v = scale.yLo; v <= scale.yHi + step / 2; v += step) {
      String y = fmt(scale.y(v));
      out.append("<line class=\"grid\" x1=\"").append(LEFT).append("\" x2=\"")
          .append(LEFT + PLOT_W).append("\" y1=\"").append(y).append("\" y2=\"").append(y)
          .append("\"/>");
      out.append("<text class=\"ylabel\" x=\"").append(LEFT - 6).append("\" y=\"").append(y)
          .append("\">").append(HtmlReport.shortNumber(Math.round(v))).append("</text>\n");
    }
    double xStep = niceStep((double) (scale.maxTick - scale.minTick) / 8);
    double first = Math.ceil(scale.minTick / xStep) * xStep;
    for (double t = first; t <= scale.maxTick; t += xStep) {
      String x = fmt(scale.x(t));
      out.append("<line class=\"tick\" x1=\"").append(x).append("\" x2=\"").append(x)
          .append("\" y1=\"").append(TOP + PLOT_H).append("\" y2=\"").append(TOP + PLOT_H + 4)
          .append("\"/>");
      out.append("<text class=\"xlabel\" x=\"").append(x).append("\" y=\"")
          .append(TOP + PLOT_H + 16).append("\">").append(HtmlReport.shortNumber(Math.round(t)))
          .append("</text>\n");
    }
    out.append("<text class=\"xtitle\" x=\"").append(LEFT + PLOT_W).append("\" y=\"")
        .append(HEIGHT - 3).append("\">simulated time (ticks)</text>\n");
    out.append("</g>\n");
  }

  /** Draws the markers, merged per pixel column and kind; returns the kinds drawn and counts. */
  private static Map<String, Integer> markers(StringBuilder out, Scale scale,
      List<FaultMarker> markers, Map<String, String> faultColours, int chart) {
    Map<String, Integer> kinds = new LinkedHashMap<>();
    if (markers.isEmpty()) {
      return kinds;
    }
    Map<String, List<FaultMarker>> columns = new LinkedHashMap<>();
    for (FaultMarker m : markers) {
      int column = (int) Math.round(scale.x(m.tick()));
      columns.computeIfAbsent(column + " " + m.fault(), k -> new ArrayList<>()).add(m);
      kinds.merge(m.fault(), 1, Integer::sum);
    }
    // Each kind's glyph is defined once per chart and placed with <use> at every marker, which
    // keeps a page with thousands of markers small.
    out.append("<defs>");
    Map<String, String> ids = new LinkedHashMap<>();
    for (String kind : kinds.keySet()) {
      String id = "g" + chart + "-" + ids.size();
      ids.put(kind, id);
      out.append("<g id=\"").append(id).append("\">");
      glyph(out, glyphOf(faultColours, kind), 0, 0, colour(faultColours, kind));
      out.append("</g>");
    }
    out.append("</defs>\n<g class=\"faults\">\n");
    for (List<FaultMarker> same : columns.values()) {
      FaultMarker m = same.get(0);
      long column = Math.round(scale.x(m.tick()));
      String x = fmt(column);
      String colour = colour(faultColours, m.fault());
      out.append("<g class=\"fault-marker\" data-fault=\"").append(HtmlReport.escape(m.fault()))
          .append("\"><line class=\"fault\" x1=\"").append(x).append("\" x2=\"").append(x)
          .append("\" y1=\"").append(TOP - 8).append("\" y2=\"").append(TOP + PLOT_H)
          .append("\" stroke=\"").append(colour).append("\"/>");
      out.append("<use href=\"#").append(ids.get(m.fault())).append("\" x=\"").append(x)
          .append("\" y=\"").append(TOP - 10).append("\"/>");
      out.append("<title>");
      if (same.size() == 1) {
        out.append("tick ").append(m.tick()).append(": ").append(HtmlReport.escape(m.fault()));
        if (!m.detail().isEmpty()) {
          out.append(" (").append(HtmlReport.escape(m.detail())).append(')');
        }
      } else {
        out.append(same.size()).append(" \u00d7 ").append(HtmlReport.escape(m.fault()))
            .append(", ticks ").append(m.tick()).append(" to ")
            .append(same.get(same.size() - 1).tick());
      }
      out.append("</title></g>\n");
    }
    out.append("</g>\n");
    return kinds;
  }

  private static void line(StringBuilder out, Scale scale, Series s, int index, int budget,
      long endTick) {
    int[] kept = downsample(s.values(), budget);
    out.append("<path class=\"series\" fill=\"none\" stroke=\"").append(seriesColour(index))
        .append('"');
    if (index >= SERIES_COLOURS.length) {
      out.append(" stroke-dasharray=\"6 3\"");
    }
    out.append(" data-points=\"").append(kept.length).append("\" d=\"");
    for (int k = 0; k < kept.length; k++) {
      int i = kept[k];
      String x = fmt(scale.x(s.ticks()[i]));
      String y = fmt(scale.y(s.values()[i]));
      if (k == 0) {
        out.append('M').append(x).append(' ').append(y);
      } else {
        out.append('H').append(x).append('V').append(y);
      }
    }
    if (kept.length > 0 && s.ticks()[kept[kept.length - 1]] < endTick) {
      out.append('H').append(fmt(scale.x(endTick)));
    }
    out.append("\"><title>").append(HtmlReport.escape(s.name())).append("</title></path>\n");
  }

  private static void legend(StringBuilder out, List<Series> series, Map<String, Integer> kinds,
      Map<String, String> faultColours, boolean[] phases) {
    out.append("<ul class=\"legend\">\n");
    for (int i = 0; i < series.size(); i++) {
      out.append("<li><span class=\"swatch\" style=\"background:").append(seriesColour(i))
          .append("\"></span>").append(HtmlReport.escape(series.get(i).name()))
          .append(i >= SERIES_COLOURS.length ? " (dashed)" : "").append("</li>\n");
    }
    for (Map.Entry<String, Integer> k : kinds.entrySet()) {
      out.append("<li class=\"fault-key\">");
      glyphSwatch(out, faultColours, k.getKey());
      out.append("fault: ").append(HtmlReport.escape(k.getKey())).append(" \u00d7 ")
          .append(k.getValue()).append("</li>\n");
    }
    if (phases[0]) {
      out.append("<li class=\"phase-key\"><span class=\"band\"></span>the workers' shutdown"
          + "</li>\n");
    }
    if (phases[1]) {
      out.append("<li class=\"phase-key\"><span class=\"lifeline\"></span>a new process"
          + " lifetime</li>\n");
    }
    out.append("</ul>\n");
  }

  /**
   * Draws the shaded band of each lifetime's shutdown and a dashed line where each lifetime after
   * the first starts; returns whether any band and any line was drawn.
   */
  private static boolean[] phases(StringBuilder out, Scale scale, List<Lifetime> lifetimes) {
    boolean[] drawn = new boolean[2];
    if (lifetimes.isEmpty()) {
      return drawn;
    }
    out.append("<g class=\"phases\">\n");
    for (Lifetime l : lifetimes) {
      if (l.shutdownTick() >= 0) {
        drawn[0] = true;
        double x1 = scale.x(l.shutdownTick());
        double width = Math.max(3, scale.x(l.endTick()) - x1);
        out.append("<rect class=\"shutdown\" x=\"").append(fmt(x1)).append("\" y=\"")
            .append(TOP).append("\" width=\"").append(fmt(width)).append("\" height=\"")
            .append(PLOT_H).append("\"><title>lifetime ").append(l.epoch())
            .append(": the workers' shutdown, ticks ").append(l.shutdownTick()).append(" to ")
            .append(l.endTick()).append(" (deadline ").append(l.shutdownDeadline())
            .append(" ticks, ").append(l.drained() ? "drained" : "not drained")
            .append(")</title></rect>\n");
      }
      if (l.epoch() > 0) {
        drawn[1] = true;
        String x = fmt(scale.x(l.startTick()));
        out.append("<line class=\"lifetime\" x1=\"").append(x).append("\" x2=\"").append(x)
            .append("\" y1=\"").append(TOP).append("\" y2=\"").append(TOP + PLOT_H)
            .append("\"><title>lifetime ").append(l.epoch()).append(" starts at tick ")
            .append(l.startTick()).append("</title></line>\n");
      }
    }
    out.append("</g>\n");
    return drawn;
  }

  /** Returns the glyph of a fault kind: its position among the kinds picks the shape. */
  static String glyphOf(Map<String, String> faultColours, String fault) {
    int i = 0;
    for (String kind : faultColours.keySet()) {
      if (kind.equals(fault)) {
        return GLYPHS[i % GLYPHS.length];
      }
      i++;
    }
    return GLYPHS[0];
  }

  /** Draws a glyph of about 11 pixels centred on {@code (x, y)}, outlined in white. */
  static void glyph(StringBuilder out, String shape, double x, double y, String colour) {
    String cx = fmt(x);
    String cy = fmt(y);
    String paint = "\" fill=\"" + colour + "\" stroke=\"#fff\" stroke-width=\"1\"/>";
    switch (shape) {
      case "circle" -> out.append("<circle class=\"glyph\" cx=\"").append(cx).append("\" cy=\"")
          .append(cy).append("\" r=\"5").append(paint);
      case "square" -> out.append("<rect class=\"glyph\" x=\"").append(fmt(x - 4.5))
          .append("\" y=\"").append(fmt(y - 4.5)).append("\" width=\"9\" height=\"9")
          .append(paint);
      case "bar" -> out.append("<rect class=\"glyph\" x=\"").append(fmt(x - 2.5))
          .append("\" y=\"").append(fmt(y - 6)).append("\" width=\"5\" height=\"12")
          .append(paint);
      default -> out.append("<path class=\"glyph\" d=\"").append(glyphPath(shape, x, y))
          .append(paint);
    }
  }

  private static String glyphPath(String shape, double x, double y) {
    return switch (shape) {
      case "triangle-up" -> "M" + fmt(x) + " " + fmt(y - 6) + "L" + fmt(x + 6) + " " + fmt(y + 5)
          + "L" + fmt(x - 6) + " " + fmt(y + 5) + "Z";
      case "diamond" -> "M" + fmt(x) + " " + fmt(y - 6.5) + "L" + fmt(x + 6.5) + " " + fmt(y)
          + "L" + fmt(x) + " " + fmt(y + 6.5) + "L" + fmt(x - 6.5) + " " + fmt(y) + "Z";
      case "cross" -> "M" + fmt(x - 6) + " " + fmt(y - 2) + "H" + fmt(x - 2) + "V" + fmt(y - 6)
          + "H" + fmt(x + 2) + "V" + fmt(y - 2) + "H" + fmt(x + 6) + "V" + fmt(y + 2) + "H"
          + fmt(x + 2) + "V" + fmt(y + 6) + "H" + fmt(x - 2) + "V" + fmt(y + 2) + "H"
          + fmt(x - 6) + "Z";
      default -> "M" + fmt(x - 6) + " " + fmt(y - 5) + "L" + fmt(x + 6) + " " + fmt(y - 5) + "L"
          + fmt(x) + " " + fmt(y + 6) + "Z"; // a triangle pointing down at its line
    };
  }

  /** Appends a fault kind's glyph as a small inline SVG, for legends and the fault table. */
  static void glyphSwatch(StringBuilder out, Map<String, String> faultColours, String fault) {
    out.append("<svg class=\"glyph-swatch\" xmlns=\"http://www.w3.org/2000/svg\" width=\"14\""
        + " height=\"14\" viewBox=\"0 0 14 14\" aria-hidden=\"true\">");
    glyph(out, glyphOf(faultColours, fault), 7, 7, colour(faultColours, fault));
    out.append("</svg>");
  }

  private static String seriesColour(int index) {
    return SERIES_COLOURS[index % SERIES_COLOURS.length];
  }

  private static String colour(Map<String, String> faultColours, String fault) {
    return faultColours.getOrDefault(fault, "#555555");
  }

  /** Returns 1, 2 or 5 times a power of ten, at least {@code raw} (and at least 1). */
  static double niceStep(double raw) {
    if (!(raw > 1)) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    double f = raw / magnitude;
    double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nice * magnitude;
  }

  /** Formats a coordinate with one decimal, without the default locale. */
  static String fmt(double v) {
    long tenths = Math.round(v * 10);
    long whole = tenths / 10;
    long frac = Math.abs(tenths % 10);
    String sign = tenths < 0 && whole == 0 ? "-" : "";
    return frac == 0 ? sign + whole : sign + whole + "." + frac;
  }

  private record Scale(long minTick, long maxTick, double yLo, double yHi) {
    double x(double tick) {
      return LEFT + (tick - minTick) * PLOT_W / (double) (maxTick - minTick);
    }

    double y(double value) {
      return TOP + PLOT_H - (value - yLo) * PLOT_H / (yHi - yLo);
    }
  }
}
