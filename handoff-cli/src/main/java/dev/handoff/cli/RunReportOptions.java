package dev.handoff.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The report options that {@code simulate} and {@code replay} share (a picocli mixin): where to
 * write the JSON and HTML reports of the run, and whether to shrink a failure.
 */
final class RunReportOptions {
  @Option(names = "--json", paramLabel = "<file>", description = "Write the JSON report here.")
  Path json;

  @Option(names = "--html", paramLabel = "<file>",
      description = "Write the HTML report (one self-contained page with charts) here.")
  Path html;

  @Option(names = "--shrink", description = "When an oracle fails, also shrink the run to the"
      + " smallest configuration that still fails it and print that one's replay command.")
  boolean shrink;

  RunReportOptions() {}
}
