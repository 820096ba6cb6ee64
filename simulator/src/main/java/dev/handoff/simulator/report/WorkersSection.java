package dev.handoff.simulator.report;

import java.util.Map;

/**
 * The HTML report's section on the sink workers: what they did over the run (insert attempts,
 * inserts written, retries, failed attempts by kind, dead letters, abandoned chunks, chunks failed
 * at shutdown, stuck writers) and one row per process lifetime with how it ended, its teardown and
 * the workers' shutdown (when it began, its deadline, how long it took, whether it drained).
 */
final class WorkersSection {
  private WorkersSection() {}

  /** Appends the section; a report without these counts (an old one) gets a short note. */
  static void render(StringBuilder out, SimulationReport r) {
    out.append("<section id=\"workers\">\n<h2>Sink workers and shutdown</h2>\n");
    Map<String, Long> rec = r.records();
    Map<String, Long> faults = r.faultsInjected();
    if (!rec.containsKey("insert-attempts") && !rec.containsKey("worker-inserts")) {
      out.append("<p class=\"dim\">This report does not record what the sink workers did.</p>\n");
    } else {
      out.append("<table class=\"workers\">\n<thead><tr><th>what</th><th class=\"n\">count</th>")
          .append("<th>what it means</th></tr></thead>\n<tbody>\n");
      row(out, "insert attempts", rec.get("insert-attempts"),
          "writes the sink saw, first attempts and retries, isolation's parts included");
      row(out, "inserts written", rec.get("worker-inserts"),
          "inserts the workers saw succeed (the workers' reports)");
      row(out, "retries", rec.get("worker-retries"),
          "attempts after a failed one (the workers' reports)");
      row(out, "transient failures", faults.get("sink-transient"),
          "attempts the sink refused; the worker backs off and retries");
      row(out, "lost answers", faults.get("sink-timeout"),
          "attempts the sink wrote but whose answer was lost: the retry writes the rows again");
      row(out, "permanent failures", faults.get("sink-permanent"),
          "attempts refused for good (a row the sink rejects): isolated, then dead-lettered or"
              + " failed");
      row(out, "dead-lettered rows", rec.get("worker-dead-lettered-rows"),
          "rows set aside as dead letters (the workers' reports)");
      row(out, "failed dead letters", faults.get("dead-letter-error"),
          "dead letters that could not be stored: their chunks fail and replay");
      row(out, "abandoned chunks", rec.get("worker-abandoned-chunks"),
          "chunks given up after the retry policy ran out: their batches replay");
      row(out, "chunks failed at shutdown", rec.get("worker-failed-at-shutdown"),
          "chunks still queued or held when the shutdown's deadline passed");
      row(out, "writers stuck at shutdown", rec.get("worker-writers-stuck"),
          "workers given up on inside a hung write after both grace periods");
      out.append("</tbody>\n</table>\n");
    }
    lifetimes(out, r);
    out.append("</section>\n");
  }

  private static void row(StringBuilder out, String what, Long n, String meaning) {
    long v = n == null ? 0 : n;
    out.append(v == 0 ? "<tr class=\"zero\">" : "<tr>").append("<td>")
        .append(HtmlReport.escape(what)).append("</td><td class=\"n\">")
        .append(n == null ? "n/a" : HtmlReport.count(v)).append("</td><td class=\"note\">")
        .append(HtmlReport.escape(meaning)).append("</td></tr>\n");
  }

  private static void lifetimes(StringBuilder out, SimulationReport r) {
    out.append("<h3>Process lifetimes</h3>\n");
    if (r.lifetimes().isEmpty()) {
      out.append("<p class=\"dim\">This run recorded no lifetimes.</p>\n");
      return;
    }
    out.append("<table class=\"lifetimes\">\n<thead><tr><th class=\"n\">lifetime</th>")
        .append("<th>faults</th><th>ticks</th><th>how it ended</th><th>teardown</th>")
        .append("<th>workers' shutdown</th><th class=\"n\">attempts</th>")
        .append("<th class=\"n\">inserts</th><th class=\"n\">retries</th>")
        .append("<th class=\"n\">dead-lettered rows</th><th class=\"n\">abandoned</th>")
        .append("<th class=\"n\">failed at shutdown</th><th class=\"n\">stuck</th></tr></thead>\n")
        .append("<tbody>\n");
    for (Lifetime l : r.lifetimes()) {
      out.append("<tr class=\"lifetime\"><td class=\"n\">").append(l.epoch()).append("</td><td>")
          .append(l.faulty() ? "on" : "off").append("</td><td>")
          .append(HtmlReport.count(l.startTick())).append(" to ")
          .append(HtmlReport.count(l.endTick())).append("</td><td>")
          .append(HtmlReport.escape(l.ending())).append("</td><td>")
          .append(l.teardownTick() >= 0 ? "at tick " + HtmlReport.count(l.teardownTick()) : "none")
          .append("</td><td>");
      if (l.shutdownTick() >= 0) {
        out.append("from tick ").append(HtmlReport.count(l.shutdownTick())).append(", deadline ")
            .append(HtmlReport.count(l.shutdownDeadline())).append(" ticks, took ")
            .append(HtmlReport.count(l.endTick() - l.shutdownTick())).append(", ")
            .append(l.drained() ? "drained" : "<strong>not drained</strong>");
      } else {
        out.append("none");
      }
      out.append("</td>");
      for (String k : new String[] {"insert-attempts", "inserts", "retries",
          "dead-lettered-rows", "abandoned-chunks", "failed-at-shutdown", "writers-stuck"}) {
        Long v = l.workers().get(k);
        out.append("<td class=\"n\">").append(v == null ? "\u2013" : HtmlReport.count(v))
            .append("</td>");
      }
      out.append("</tr>\n");
    }
    out.append("</tbody>\n</table>\n");
  }
}
