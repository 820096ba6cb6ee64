package dev.handoff.simulator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class HtmlReportTest {

  private static final Pattern FIGURE = Pattern.compile("(?s)<figure class=\"chart\".*?</figure>");
  private static final Pattern POINTS = Pattern.compile("data-points=\"(\\d+)\"");
  private static final Pattern GROUP = Pattern.compile("<svg [^>]*data-group=\"([^\"]*)\"");

  @Test
  void passingAndFailingPages_areWellFormed() {
    MarkupCheck.assertWellFormed(HtmlReport.render(ReportFixtures.passing()));
    MarkupCheck.assertWellFormed(HtmlReport.render(ReportFixtures.failing()));
  }

  @Test
  void markupCheck_bites() {
    assertThatThrownBy(() -> MarkupCheck.assertWellFormed("<html><body></html>"))
        .isInstanceOf(AssertionError.class).hasMessageContaining("closes");
    assertThatThrownBy(() -> MarkupCheck.assertWellFormed("<html>a & b</html>"))
        .isInstanceOf(AssertionError.class).hasMessageContaining("ampersand");
    assertThatThrownBy(() -> MarkupCheck.assertWellFormed("<html><p class=x></p></html>"))
        .isInstanceOf(AssertionError.class).hasMessageContaining("unexpected character");
  }

  @Test
  void header_showsSeedVerdictHashAndReplayCommand() {
    String page = HtmlReport.render(ReportFixtures.failing());

    assertThat(page).startsWith("<!DOCTYPE html>")
        .contains("handoff simulation, seed 7")
        .contains("<span class=\"verdict failed\">FAILED</span>")
        .contains("9e3779b97f4a7c15")
        .contains("<pre class=\"command\"><span>./handoff</span> <span>replay</span>"
            + " <span>--seed</span> <span>7</span> <span>--shards=3</span>"
            + " <span>--queue-capacity=4</span></pre>");
  }

  @Test
  void failedOracle_isHighlightedWithItsEvents() {
    String page = HtmlReport.render(ReportFixtures.failing());

    assertThat(page).contains("<section id=\"failure\">")
        .contains("<strong>no-loss</strong> failed after event 511: lost = 3")
        .contains("<li><code>#511 t=3000 teardown, drain deadline 0</code></li>")
        .contains("<tr class=\"failed\"><td>no-loss</td><td class=\"verdict-cell\">FAILED</td>")
        .contains("<tr class=\"passed\"><td>per-shard-order</td>");
    assertThat(HtmlReport.render(ReportFixtures.passing())).doesNotContain("id=\"failure\"")
        .doesNotContain("<tr class=\"failed\">");
  }

  @Test
  void tables_listConfigurationFaultsAndRecords() {
    String page = HtmlReport.render(ReportFixtures.passing());

    assertThat(page).contains("<td><code>queue-capacity</code></td><td><code>4</code></td>")
        .contains("<tr class=\"zero\"><td>encode-error</td><td class=\"n\">0</td></tr>")
        .containsPattern("<tr><td><svg class=\"glyph-swatch\"[^>]*><[a-z]+ class=\"glyph\"[^>]*"
            + " fill=\"" + SvgChart.FAULT_COLOURS[2] + "\"[^>]*/></svg>sink-transient</td>"
            + "<td class=\"n\">12</td></tr>")
        .contains("<tr><td>generated</td><td class=\"n\">1,000</td></tr>")
        .contains("<tr class=\"zero\"><td>lost</td>");
  }

  @Test
  void charts_oneSvgPerGroupInTheKnownOrderThenTheOthers() {
    SimulationReport r = ReportFixtures.passing();
    List<Series> series = new ArrayList<>();
    series.add(ReportFixtures.series("retries", "sink retries", 50, 0, 3));
    series.addAll(r.series());

    String page = HtmlReport.render(with(r, series, r.faultMarkers()));

    List<String> groups = new ArrayList<>();
    Matcher m = GROUP.matcher(page);
    while (m.find()) {
      groups.add(m.group(1));
    }
    assertThat(groups).containsExactly("queue depth", "parked chunks", "budget bytes",
        "checkpoint", "sink retries");
    List<String> figures = figures(page);
    assertThat(figures.get(0)).contains("<title>shard 0</title>", "<title>shard 1</title>")
        .contains("fault: queue-stall", "fault: sink-transient").contains("<line class=\"fault\"");
    assertThat(figures.get(3)).contains("<title>source s0</title>", "<title>source s1</title>");
  }

  @Test
  void charts_absentSeriesSaySo() {
    SimulationReport r = ReportFixtures.passing();

    String page = HtmlReport.render(with(r, List.of(), List.of()));

    assertThat(page).contains("This run recorded no time series.")
        .doesNotContain("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\"");
    MarkupCheck.assertWellFormed(page);
  }

  @Test
  void hostileStrings_areEscapedEverywhere() {
    String hostile = "<script>alert('x')</script> & \"q\" \u0000\u0007 \ud800 lone \uFFFE";
    SimulationReport r = ReportFixtures.failing();
    Map<String, String> configuration = new LinkedHashMap<>(r.configuration());
    configuration.put(hostile, hostile);
    Map<String, Long> faults = new LinkedHashMap<>(r.faultsInjected());
    faults.put(hostile, 1L);
    List<OracleResult> oracles = new ArrayList<>(r.oracles());
    oracles.add(new OracleResult(hostile, false, 1, hostile, 3));
    List<Series> series = new ArrayList<>(r.series());
    series.add(ReportFixtures.series(hostile, hostile, 20, 0, 5));
    List<FaultMarker> markers = new ArrayList<>(r.faultMarkers());
    markers.add(new FaultMarker(100, hostile, hostile));
    SimulationReport odd = new SimulationReport(r.seed(), configuration, hostile + " replay",
        r.eventLogHash(), r.events(), r.simulatedTicks(), r.wallNanos(), r.eventsPerSecond(),
        r.recordsPerSecond(), faults, oracles, r.records(), series, markers, List.of(hostile));

    String page = HtmlReport.render(odd);

    MarkupCheck.assertWellFormed(page);
    assertThat(page).doesNotContain("<script").doesNotContain("\u0000").doesNotContain("\u0007")
        .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
  }

  @Test
  void escape_keepsSurrogatePairsAndPlainTextAsIs() {
    assertThat(HtmlReport.escape("plain text")).isEqualTo("plain text");
    assertThat(HtmlReport.escape("smile \ud83d\ude00 & <b>"))
        .isEqualTo("smile \ud83d\ude00 &amp; &lt;b&gt;");
    assertThat(HtmlReport.escape("\ud83d\ude00\ud83d")).isEqualTo("\ud83d\ude00\uFFFD");
    assertThat(HtmlReport.escape(null)).isEmpty();
  }

  @Test
  void page_isSelfContained() {
    String page = HtmlReport.render(ReportFixtures.failing());

    assertThat(page).doesNotContain("<script").doesNotContain("<link").doesNotContain("<img")
        .doesNotContain("@import").doesNotContain("url(").doesNotContain("src=");
    assertThat(page.replace("xmlns=\"http://www.w3.org/2000/svg\"", ""))
        .doesNotContain("http://").doesNotContain("https://");
  }

  @Test
  void longSeries_areDownsampledToABoundedPageAndChart() {
    SimulationReport big = ReportFixtures.report(9, false, 8, 200_000);
    List<FaultMarker> markers = new ArrayList<>();
    for (long t = 0; t < 2_000_000; t += 40) {
      markers.add(new FaultMarker(t, t % 80 == 0 ? "queue-stall" : "sink-transient", "x"));
    }

    String page = HtmlReport.render(with(big, big.series(), markers));

    assertThat(page.length()).as("page size").isLessThan(2_000_000);
    for (String figure : figures(page)) {
      int points = 0;
      Matcher m = POINTS.matcher(figure);
      while (m.find()) {
        points += Integer.parseInt(m.group(1));
      }
      assertThat(points).as("points in one chart").isPositive().isLessThanOrEqualTo(2_000);
    }
    MarkupCheck.assertWellFormed(page);
  }

  @Test
  void downsample_keepsEndsAndSpikesInOrder() {
    long[] values = new long[100_000];
    values[31_337] = 1_000_000;
    values[77_777] = -5;

    int[] kept = SvgChart.downsample(values, 400);

    assertThat(kept.length).isLessThanOrEqualTo(400);
    assertThat(kept).contains(0, 31_337, 77_777, 99_999);
    for (int i = 1; i < kept.length; i++) {
      assertThat(kept[i]).isGreaterThan(kept[i - 1]);
    }
    assertThat(SvgChart.downsample(new long[] {3, 1, 2}, 400)).containsExactly(0, 1, 2);
  }

  @Test
  void render_isDeterministic(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("report.html");

    HtmlReport.write(ReportFixtures.failing(), file);

    assertThat(Files.readString(file)).isEqualTo(HtmlReport.render(ReportFixtures.failing()));
  }

  @Test
  void numbers_areFormattedWithoutTheDefaultLocale() {
    assertThat(HtmlReport.count(1_234_567)).isEqualTo("1,234,567");
    assertThat(HtmlReport.shortNumber(950)).isEqualTo("950");
    assertThat(HtmlReport.shortNumber(65_536)).isEqualTo("65.5k");
    assertThat(HtmlReport.shortNumber(2_000_000)).isEqualTo("2M");
    assertThat(SvgChart.fmt(-0.04)).isEqualTo("0");
    assertThat(SvgChart.fmt(-0.25)).isEqualTo("-0.2");
    assertThat(SvgChart.fmt(12.345)).isEqualTo("12.3");
  }

  private static List<String> figures(String page) {
    List<String> figures = new ArrayList<>();
    Matcher m = FIGURE.matcher(page);
    while (m.find()) {
      figures.add(m.group());
    }
    return figures;
  }

  private static SimulationReport with(SimulationReport r, List<Series> series,
      List<FaultMarker> markers) {
    return new SimulationReport(r.seed(), r.configuration(), r.replayCommand(), r.eventLogHash(),
        r.events(), r.simulatedTicks(), r.wallNanos(), r.eventsPerSecond(), r.recordsPerSecond(),
        r.faultsInjected(), r.oracles(), r.records(), series, markers, r.lastEvents(),
        r.lifetimes());
  }
}
