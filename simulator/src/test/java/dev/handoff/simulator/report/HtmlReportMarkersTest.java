package dev.handoff.simulator.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What issue 16 and 17 ask of the HTML page: fault markers that can be seen and told apart, a
 * replay command that wraps only at spaces, and the sink workers' attempts, retries, dead letters
 * and shutdowns.
 */
final class HtmlReportMarkersTest {
  private static final Pattern COMMAND = Pattern.compile("(?s)<pre class=\"command\">(.*?)</pre>");
  private static final Pattern CSS_RULE =
      Pattern.compile("svg\\.chart line\\.fault \\{ stroke-width: ([0-9.]+); opacity: ([0-9.]+); \\}");
  private static final Pattern GLYPH_DEF = Pattern.compile("<g id=\"(g\\d+-\\d+)\">");
  private static final Pattern USE = Pattern.compile("<use href=\"#(g\\d+-\\d+)\"");

  @Test
  void replayCommand_wrapsOnlyAtSpacesAndCopiesUnchanged() {
    SimulationReport r = ReportFixtures.failing();
    String command = "./handoff replay --seed 7 --shards=3 --target-bytes=505"
        + " --mutation=a<b&c --knob-with-a-rather-long-name-that-must-not-break=1048576";
    SimulationReport odd = new SimulationReport(r.seed(), r.configuration(), command,
        r.eventLogHash(), r.events(), r.simulatedTicks(), r.wallNanos(), r.eventsPerSecond(),
        r.recordsPerSecond(), r.faultsInjected(), r.oracles(), r.records(), r.series(),
        r.faultMarkers(), r.lastEvents(), r.lifetimes());

    String page = HtmlReport.render(odd);

    // No rule lets the browser break inside a word; each word is a span that never breaks.
    assertThat(page).doesNotContain("break-all").doesNotContain("overflow-wrap: anywhere")
        .contains("pre.command span { white-space: nowrap; }")
        .containsPattern("pre\\.command \\{[^}]*white-space: pre-wrap;");
    Matcher m = COMMAND.matcher(page);
    assertThat(m.find()).isTrue();
    String box = m.group(1);
    assertThat(box.split(" ")).allSatisfy(word -> assertThat(word).matches("<span>[^<> ]+</span>"));
    String text = box.replaceAll("<[^>]+>", "").replace("&lt;", "<").replace("&gt;", ">")
        .replace("&amp;", "&");
    assertThat(text).isEqualTo(command);
    MarkupCheck.assertWellFormed(page);
  }

  @Test
  void faultMarkers_areThickLinesToppedByAGlyphPerKind() {
    String page = HtmlReport.render(ReportFixtures.passing());

    Matcher css = CSS_RULE.matcher(page);
    assertThat(css.find()).as("the fault line's style").isTrue();
    assertThat(Double.parseDouble(css.group(1))).as("stroke width").isGreaterThanOrEqualTo(2);
    assertThat(Double.parseDouble(css.group(2))).as("opacity").isGreaterThanOrEqualTo(0.7);
    String firstChart = page.substring(page.indexOf("<figure class=\"chart\""),
        page.indexOf("</figure>") + 9);
    Set<String> defined = new HashSet<>();
    Matcher d = GLYPH_DEF.matcher(firstChart);
    while (d.find()) {
      defined.add(d.group(1));
    }
    // queue-stall and sink-transient markers, each placed with its kind's glyph.
    assertThat(defined).hasSize(2);
    Set<String> used = new HashSet<>();
    int uses = 0;
    Matcher u = USE.matcher(firstChart);
    while (u.find()) {
      used.add(u.group(1));
      uses++;
    }
    assertThat(used).isEqualTo(defined);
    assertThat(uses).isEqualTo(count(firstChart, "<line class=\"fault\""));
    assertThat(firstChart).contains("<li class=\"fault-key\"><svg class=\"glyph-swatch\"");
    MarkupCheck.assertWellFormed(page);
  }

  @Test
  void everyFaultKind_getsItsOwnColourAndShapePair() {
    Map<String, String> colours = new LinkedHashMap<>();
    for (int i = 0; i < 20; i++) {
      colours.put("kind-" + i, SvgChart.FAULT_COLOURS[i % SvgChart.FAULT_COLOURS.length]);
    }
    Set<String> pairs = new HashSet<>();
    for (String kind : colours.keySet()) {
      pairs.add(colours.get(kind) + " " + SvgChart.glyphOf(colours, kind));
    }
    assertThat(pairs).hasSize(20);
    List<String> shapes = new ArrayList<>();
    for (String shape : SvgChart.GLYPHS) {
      StringBuilder out = new StringBuilder();
      SvgChart.glyph(out, shape, 7, 7, "#000");
      shapes.add(out.toString());
    }
    assertThat(new HashSet<>(shapes)).hasSize(SvgChart.GLYPHS.length);
  }

  @Test
  void workersSection_showsAttemptsRetriesDeadLettersAndEachShutdown() {
    String page = HtmlReport.render(ReportFixtures.passing());

    assertThat(page).contains("<section id=\"workers\">", "<a href=\"#workers\">")
        .contains("<tr><td>insert attempts</td><td class=\"n\">130</td>")
        .contains("<tr><td>retries</td><td class=\"n\">12</td>")
        .contains("<tr><td>dead-lettered rows</td><td class=\"n\">2</td>")
        .contains("<tr><td>chunks failed at shutdown</td><td class=\"n\">1</td>")
        .contains("<td>crashed</td><td>none</td><td>none</td><td class=\"n\">50</td>"
            + "<td class=\"n\">\u2013</td>")
        .contains("<td>shut down</td><td>at tick 1,000</td><td>from tick 1,960, deadline 10,000"
            + " ticks, took 40, drained</td><td class=\"n\">80</td><td class=\"n\">70</td>"
            + "<td class=\"n\">10</td><td class=\"n\">2</td>");
    String chart = page.substring(page.indexOf("<figure class=\"chart\""));
    assertThat(chart).contains("<rect class=\"shutdown\"", "the workers' shutdown, ticks 1960 to"
        + " 2000 (deadline 10000 ticks, drained)", "<line class=\"lifetime\"",
        "lifetime 1 starts at tick 667", "<span class=\"band\"></span>the workers' shutdown");
    MarkupCheck.assertWellFormed(page);
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
      n++;
    }
    return n;
  }
}
