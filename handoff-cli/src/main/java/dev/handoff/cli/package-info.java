/**
 * The {@code handoff} command and its subcommands ({@code simulate}, {@code sweep}, {@code
 * replay}, and {@code ingest}, which reads JSON lines into ClickHouse), built with picocli. {@link dev.handoff.cli.Main} is the program's entry point; {@link
 * dev.handoff.cli.HandoffCommand} is the top command, to which later subcommands are added.
 */
package dev.handoff.cli;
