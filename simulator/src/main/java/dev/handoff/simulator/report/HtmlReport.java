package dev.handoff.simulator.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link SimulationReport} as one self-contained HTML file that a researcher opens in a
 * browser: no scripts, no external fonts, style sheets or images.
 *
 * <p>The page has a header (seed, verdict, event-log hash, throughput and the replay command), the
 * failure and the events leading to it when an oracle failed, tables of the oracles (failures
 * highlighted), the record outcomes, what the sink workers did (insert attempts, retries, dead
 * letters) and how each process lifetime ended (its teardown and the workers' shutdown), the
 * faults injected and the configuration, and one SVG chart per series group over simulated time
 * (queue depth and parked chunks per shard, budget bytes, the sink's writes, checkpoint
 * watermarks per source, and any group the engine adds), with the fault markers as coloured
 * lines topped by a glyph per fault kind, the shutdowns shaded, and a legend under each chart.
 *
 * <p>Every text from the report is escaped, characters XML does not allow are replaced with
 * U+FFFD, and void elements are self-closed, so the page is also well-formed XML. Rendering is
 * deterministic: the same report gives the same bytes.
 */
public final class HtmlReport {

  /** The group names the engine uses, in the order their charts appear; other groups follow. */
  public static final List<String> CHART_ORDER =
      List.of("queue depth", "parked chunks", "budget bytes", "sink writes", "checkpoint");

  private static final String STYLE = """
      body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d232a;
             margin: 0 auto; max-width: 1000px; padding: 16px 20px 48px; }
      h1 { font-size: 22px; margin: 8px 0 12px; }
      h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #d5dae0; }
      h3 { font-size: 14px; margin: 16px 0 6px; }
      code, pre { font: 12.5px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
      pre.command { background: #f3f5f7; border: 1px solid #d5dae0; padding: 8px 10px;
                    white-space: pre-wrap; overflow-x: auto; }
      pre.command span { white-space: nowrap; }
      .verdict { padding: 1px 8px; border-radius: 4px; color: #fff; }
      .verdict.passed { background: #2e8b3a; } .verdict.failed { background: #b0302c; }
      dl.summary { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; }
      dl.summary dt { color: #5f6b73; } dl.summary dd { margin: 0; }
      table { border-collapse: collapse; margin: 4px 0; }
      th, td { text-align: left; padding: 3px 10px; border-bottom: 1px solid #e4e8ec;
               vertical-align: top; }
      td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
      tr.failed td { background: #fde8e7; } tr.failed td.verdict-cell { color: #b0302c;
                     font-weight: 600; }
      tr.zero td { color: #98a2ab; }
      .dim { color: #7a848d; font-weight: normal; }
      ol.events { font-size: 12.5px; list-style: none; padding-left: 0; }
      ol.events li { white-space: pre-wrap; }
      figure.chart { margin: 18px 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
      svg.chart { max-width: 100%; height: auto; background: #fff; }
      svg.chart rect.plot { fill: #fbfcfd; stroke: #c9d0d6; }
      svg.chart line.grid { stroke: #e6eaee; } svg.chart line.tick { stroke: #8a949c; }
      svg.chart text { font: 11px system-ui, sans-serif; fill: #4b555d; }
      svg.chart text.ylabel { text-anchor: end; dominant-baseline: middle; }
      svg.chart text.xlabel { text-anchor: middle; } svg.chart text.xtitle { text-anchor: end; }
      svg.chart line.fault { stroke-width: 2.5; opacity: 0.75; }
      svg.chart rect.shutdown { fill: #5f6b73; fill-opacity: 0.13; }
      svg.chart line.lifetime { stroke: #1d232a; stroke-width: 1.5; stroke-dasharray: 5 3; }
      svg.chart path.series { fill: none; stroke-width: 1.6; }
      ul.legend { list-style: none; padding: 0; margin: 4px 0; display: flex; flex-wrap: wrap;
                  gap: 4px 16px; font-size: 12.5px; }
      .swatch { display: inline-block; width: 18px; height: 3px; margin: 0 6px 3px 0;
                vertical-align: middle; }
      .glyph-swatch { vertical-align: middle; margin: 0 6px 2px 0; }
      .band { display: inline-block; width: 18px; height: 12px; margin: 0 6px 0 0;
              vertical-align: middle; background: rgba(95, 107, 115, 0.25); }
      .lifeline { display: inline-block; width: 0; height: 12px; margin: 0 8px 0 4px;
                  vertical-align: middle; border-left: 2px dashed #1d232a; }
      td.note { color: #5f6b73; font-size: 12.5px; }
      nav a { margin-right: 12px; }
      footer { margin-top: 36px; color: #7a848d; font-size: 12px; }
      """;

  private HtmlReport() {}

  /**
   * Returns the HTML page of a report.
   *
   * @param report the report to render
   * @return the page, one self-contained document
   */
  public static String render(SimulationReport report) {
    StringBuilder out = new StringBuilder(16_384);
    boolean passed = report.passed();
    String verdict = passed ? "passed" : "failed";
    out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
        .append("<title>handoff simulation, seed ").append(report.seed()).append(": ")
        .append(verdict).append("</title>\n<style>\n").append(STYLE).append("</style>\n")
        .append("</head>\n<body>\n");

    header(out, report, verdict);
    if (!passed) {
      failure(out, report);
    }
    oracles(out, report.oracles());
    Map<String, String> faultColours = faultColours(report);
    counts(out, "records", "Records", "outcome", report.records(), Map.of());
    WorkersSection.render(out, report);
    counts(out, "faults", "Faults injected", "fault", report.faultsInjected(), faultColours);
    charts(out, report, faultColours);
    configuration(out, report.configuration());
    out.append("<footer>Written by the handoff simulator. The same seed and configuration give the"
        + " same event log, hash and page, apart from the wall-clock figures.</footer>\n");
    out.append("</body>\n</html>\n");
    return out.toString();
  }

  /**
   * Writes the HTML page of a report to a file in UTF-8, replacing it.
   *
   * @param report the report to render
   * @param file where to write it
   * @throws IOException when the file cannot be written
   */
  public static void write(SimulationReport report, Path file) throws IOException {
    Files.writeString(file, render(report), StandardCharsets.UTF_8);
  }

  /**
   * Returns text safe inside HTML or XML elements and quoted attributes: {@code & < > " '} become
   * references, and characters XML 1.0 does not allow (most control characters, lone surrogates,
   * U+FFFE and U+FFFF) become U+FFFD.
   *
   * @param text any text, null reading as empty
   * @return the escaped text
   */
  public static String escape(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      String replacement = switch (c) {
        case '&' -> "&amp;";
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '"' -> "&quot;";
        case '\'' -> "&#39;";
        default -> allowed(text, i) ? null : "\uFFFD";
      };
      if (Character.isHighSurrogate(c) && replacement == null) {
        if (out != null) {
          out.append(c).append(text.charAt(i + 1));
        }
        i++;
        continue;
      }
      if (replacement != null && out == null) {
        out = new StringBuilder(text.length() + 16).append(text, 0, i);
      }
      if (out != null) {
        if (replacement != null) {
          out.append(replacement);
        } else {
          out.append(c);
        }
      }
    }
    return out == null ? text : out.toString();
  }

  /** Formats a count with thousands separators, without the default locale. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** Formats an axis value compactly: 950, 12k, 1.5M, 3G. */
  static String shortNumber(long n) {
    long abs = Math.abs(n);
    if (abs < 10_000) {
      return Long.toString(n);
    }
    String[] units = {"k", "M", "G", "T", "P"};
    double v = n;
    int u = -1;
    while (Math.abs(v) >= 1000 && u < units.length - 1) {
      v /= 1000;
      u++;
    }
    long tenths = Math.round(v * 10);
    String text = tenths % 10 == 0 ? Long.toString(tenths / 10) : SvgChart.fmt(v);
    return text + units[u];
  }

  private static boolean allowed(String text, int i) {
    char c = text.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
    }
    if (Character.isLowSurrogate(c)) {
      return false;
    }
    if (c < 0x20) {
      return c == '\t' || c == '\n' || c == '\r';
    }
    return c != '\uFFFE' && c != '\uFFFF';
  }

  private static void header(StringBuilder out, SimulationReport r, String verdict) {
    out.append("<header>\n<h1>handoff simulation, seed ").append(r.seed())
        .append(" <span class=\"verdict ").append(verdict).append("\">")
        .append(verdict.toUpperCase(Locale.ROOT)).append("</span></h1>\n");
    out.append("<dl class=\"summary\">\n");
    item(out, "seed", Long.toString(r.seed()));
    item(out, "verdict", verdict + " (" + failedCount(r.oracles()) + " of " + r.oracles().size()
        + " oracles failed)");
    item(out, "event-log hash", JsonReport.hash(r.eventLogHash()));
    item(out, "events", count(r.events()));
    item(out, "simulated time", count(r.simulatedTicks()) + " ticks");
    item(out, "wall time", String.format(Locale.ROOT, "%.3f s", r.wallNanos() / 1e9));
    item(out, "events per second", rate(r.eventsPerSecond()));
    item(out, "records per second", rate(r.recordsPerSecond()));
    out.append("</dl>\n<h3>Replay this run</h3>\n<pre class=\"command\">");
    command(out, r.replayCommand());
    out.append("</pre>\n");
    out.append("<nav>").append(r.passed() ? "" : "<a href=\"#failure\">failure</a>")
        .append("<a href=\"#oracles\">oracles</a><a href=\"#records\">records</a>")
        .append("<a href=\"#workers\">sink workers</a>")
        .append("<a href=\"#faults\">faults</a><a href=\"#charts\">charts</a>")
        .append("<a href=\"#configuration\">configuration</a></nav>\n</header>\n");
  }

  /**
   * Writes a command as words that never break inside (each a {@code nowrap} span) separated by
   * single spaces, so the box wraps only at spaces; copying it gives the command unchanged.
   */
  static void command(StringBuilder out, String command) {
    String[] words = command.split(" ", -1);
    for (int i = 0; i < words.length; i++) {
      if (i > 0) {
        out.append(' ');
      }
      if (!words[i].isEmpty()) {
        out.append("<span>").append(escape(words[i])).append("</span>");
      }
    }
  }

  private static void item(StringBuilder out, String term, String value) {
    out.append("<dt>").append(escape(term)).append("</dt><dd>").append(escape(value))
        .append("</dd>\n");
  }

  private static void failure(StringBuilder out, SimulationReport r) {
    out.append("<section id=\"failure\">\n<h2>Failure</h2>\n");
    for (OracleResult o : r.oracles()) {
      if (!o.passed()) {
        out.append("<p><strong>").append(escape(o.name())).append("</strong>");
        if (o.atEvent() >= 0) {
          out.append(" failed after event ").append(count(o.atEvent()));
        }
        out.append(": ").append(escape(o.failure())).append("</p>\n");
      }
    }
    if (!r.lastEvents().isEmpty()) {
      out.append("<h3>The events leading to it, oldest first</h3>\n<ol class=\"events\">\n");
      for (String e : r.lastEvents()) {
        out.append("<li><code>").append(escape(e)).append("</code></li>\n");
      }
      out.append("</ol>\n");
    }
    out.append("</section>\n");
  }

  private static void oracles(StringBuilder out, List<OracleResult> oracles) {
    out.append("<section id=\"oracles\">\n<h2>Oracles <span class=\"dim\">(")
        .append(failedCount(oracles)).append(" of ").append(oracles.size())
        .append(" failed)</span></h2>\n<table class=\"oracles\">\n<thead><tr><th>oracle</th>")
        .append("<th>verdict</th><th class=\"n\">checks</th><th class=\"n\">first failing event")
        .append("</th><th>what was wrong</th></tr></thead>\n<tbody>\n");
    for (OracleResult o : oracles) {
      out.append(o.passed() ? "<tr class=\"passed\">" : "<tr class=\"failed\">")
          .append("<td>").append(escape(o.name())).append("</td><td class=\"verdict-cell\">")
          .append(o.passed() ? "passed" : "FAILED").append("</td><td class=\"n\">")
          .append(count(o.checks())).append("</td><td class=\"n\">")
          .append(o.atEvent() >= 0 ? count(o.atEvent()) : "").append("</td><td>")
          .append(escape(o.failure())).append("</td></tr>\n");
    }
    out.append("</tbody>\n</table>\n</section>\n");
  }

  /** Writes a table of counts; a name with a colour gets its glyph (the charts' fault marker). */
  private static void counts(StringBuilder out, String id, String title, String what,
      Map<String, Long> counts, Map<String, String> colours) {
    out.append("<section id=\"").append(id).append("\">\n<h2>").append(title)
        .append("</h2>\n<table class=\"").append(id).append("\">\n<thead><tr><th>")
        .append(what).append("</th><th class=\"n\">count</th></tr></thead>\n<tbody>\n");
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      long n = e.getValue() == null ? 0 : e.getValue();
      out.append(n == 0 ? "<tr class=\"zero\">" : "<tr>").append("<td>");
      if (colours.containsKey(e.getKey()) && n > 0) {
        SvgChart.glyphSwatch(out, colours, e.getKey());
      }
      out.append(escape(e.getKey())).append("</td><td class=\"n\">").append(count(n))
          .append("</td></tr>\n");
    }
    out.append("</tbody>\n</table>\n</section>\n");
  }

  private static void configuration(StringBuilder out, Map<String, String> configuration) {
    out.append("<section id=\"configuration\">\n<h2>Configuration</h2>\n")
        .append("<table class=\"configuration\">\n<thead><tr><th>knob</th><th>value</th></tr>")
        .append("</thead>\n<tbody>\n");
    for (Map.Entry<String, String> e : configuration.entrySet()) {
      out.append("<tr><td><code>").append(escape(e.getKey())).append("</code></td><td><code>")
          .append(escape(e.getValue())).append("</code></td></tr>\n");
    }
    out.append("</tbody>\n</table>\n</section>\n");
  }

  private static void charts(StringBuilder out, SimulationReport r,
      Map<String, String> faultColours) {
    out.append("<section id=\"charts\">\n<h2>Over simulated time</h2>\n");
    Map<String, List<Series>> groups = groups(r.series());
    if (groups.isEmpty()) {
      out.append("<p class=\"dim\">This run recorded no time series.</p>\n");
    }
    int index = 0;
    for (Map.Entry<String, List<Series>> g : groups.entrySet()) {
      SvgChart.render(out, g.getKey(), index++, g.getValue(), r.faultMarkers(), faultColours,
          r.lifetimes(), r.simulatedTicks());
    }
    out.append("</section>\n");
  }

  /** Assigns each fault kind a colour: the fault table's order first, then markers' other kinds. */
  private static Map<String, String> faultColours(SimulationReport r) {
    Map<String, String> colours = new LinkedHashMap<>();
    for (String kind : r.faultsInjected().keySet()) {
      colours.put(kind, SvgChart.FAULT_COLOURS[colours.size() % SvgChart.FAULT_COLOURS.length]);
    }
    for (FaultMarker m : r.faultMarkers()) {
      colours.computeIfAbsent(m.fault(),
          k -> SvgChart.FAULT_COLOURS[colours.size() % SvgChart.FAULT_COLOURS.length]);
    }
    return colours;
  }

  /** Groups series by chart: the known groups first in {@link #CHART_ORDER}, then the others. */
  static Map<String, List<Series>> groups(List<Series> series) {
    Map<String, List<Series>> groups = new LinkedHashMap<>();
    for (String known : CHART_ORDER) {
      for (Series s : series) {
        if (s.group().equals(known)) {
          groups.computeIfAbsent(known, k -> new ArrayList<>()).add(s);
        }
      }
    }
    for (Series s : series) {
      if (!CHART_ORDER.contains(s.group())) {
        groups.computeIfAbsent(s.group(), k -> new ArrayList<>()).add(s);
      }
    }
    return groups;
  }

  private static long failedCount(List<OracleResult> oracles) {
    return oracles.stream().filter(o -> !o.passed()).count();
  }

  private static String rate(double perSecond) {
    return Double.isFinite(perSecond) ? count(Math.round(perSecond)) : "n/a";
  }
}
