package dev.handoff.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * What one {@code ingest} run did, printed as JSON on the standard output.
 *
 * @param status {@code ok} when every row read was written or accounted for as skipped or
 *     dead-lettered; {@code incomplete} when some were not (the exit status is then 1)
 * @param table the target table ({@code db.name}), or {@code null} in {@code --out} mode
 * @param format the ClickHouse format of the inserts
 * @param input the input file, or {@code -} for stdin
 * @param timezone the zone date-time text without an offset was read in, and where it came from
 * @param resumedFrom the input byte offset this run started reading at
 * @param rowsRead non-blank input lines this run read (replays not counted again)
 * @param rowsWritten rows the sink acknowledged (replayed duplicates included)
 * @param rowsSkipped rows skipped under {@code --on-error skip}, the sum of {@code skipped}
 * @param skipped skipped rows per reason
 * @param rowsWithUnknownFields rows with a field that names no column, written without it
 * @param unknownFields those field names, each with the rows that had it
 * @param rowsDeadLettered rows the server rejected that went to the dead-letter directory
 * @param insertsDeadLettered dead-letter files written
 * @param retries insert attempts that failed transiently and were retried
 * @param batchesReplayed batches whose acknowledgements failed and that were read again
 * @param rowsReplayed rows those replays read again
 * @param duplicates rows this run wrote that were in the table already: rows of a partly
 *     written batch written again by its replay, and rows the run this one resumed had written
 *     after its checkpoint (once this run wrote them again)
 * @param rowsInDoubt rows that may be in the table twice without being in {@code duplicates}:
 *     rows of insert attempts whose outcome was unknown (a timeout or a connection lost while
 *     the server answered) and that were retried, and rows the resumed run had written after its
 *     checkpoint while this run did not get past them
 * @param rowsLost rows that were read and neither written, skipped nor dead-lettered (their
 *     batches failed more often than they may replay, were cut off by a deadline, or the row
 *     stopped the run under {@code --on-error fail}): a {@code --resume} reads them again
 * @param rowsWrittenPastCheckpoint rows after the checkpoint's offset that are in the table
 *     already (written parts of failed batches, and batches after them): a {@code --resume}
 *     writes them again and counts them in its {@code duplicates}
 * @param chunksAbandoned chunks whose acknowledgements failed (retries exhausted, shutdown)
 * @param bytesWritten bytes of the inserts the sink acknowledged
 * @param elapsedSeconds wall time of the run
 * @param checkpointOffset the input byte offset before which every row is written or accounted
 *     for: where {@code --resume} starts
 * @param checkpointRows the rows before {@code checkpointOffset}
 * @param checkpointFile the checkpoint file, or {@code null} when none was asked for
 * @param note a warning about the counts, or {@code null}
 * @param error why the run stopped early, or {@code null}
 */
record IngestSummary(
    String status,
    String table,
    String format,
    String input,
    String timezone,
    long resumedFrom,
    long rowsRead,
    long rowsWritten,
    long rowsSkipped,
    Map<String, Long> skipped,
    long rowsWithUnknownFields,
    Map<String, Long> unknownFields,
    long rowsDeadLettered,
    long insertsDeadLettered,
    long retries,
    long batchesReplayed,
    long rowsReplayed,
    long duplicates,
    long rowsInDoubt,
    long rowsLost,
    long rowsWrittenPastCheckpoint,
    long chunksAbandoned,
    long bytesWritten,
    double elapsedSeconds,
    long checkpointOffset,
    long checkpointRows,
    String checkpointFile,
    String note,
    String error) {

  // Jackson's streaming writer, not a mapper: a run that never needed a JSON tree does not pay
  // for the first ObjectMapper's initialization at its end (see TreeMapper).
  private static final JsonFactory JSON = new JsonFactory();

  /** Returns the rows written per second of wall time. */
  double rowsPerSecond() {
    return elapsedSeconds > 0 ? rowsWritten / elapsedSeconds : 0;
  }

  /** Returns the megabytes (10^6 bytes) of inserts written per second of wall time. */
  double megabytesPerSecond() {
    return elapsedSeconds > 0 ? bytesWritten / 1e6 / elapsedSeconds : 0;
  }

  /** Returns whether every row read is written or accounted for. */
  boolean ok() {
    return "ok".equals(status);
  }

  /** Returns the summary as an indented JSON object, fields in a fixed order. */
  String toJson() {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out).useDefaultPrettyPrinter()) {
      g.writeStartObject();
      g.writeStringField("status", status);
      g.writeStringField("table", table);
      g.writeStringField("format", format);
      g.writeStringField("input", input);
      g.writeStringField("timezone", timezone);
      g.writeNumberField("resumedFrom", resumedFrom);
      g.writeNumberField("rowsRead", rowsRead);
      g.writeNumberField("rowsWritten", rowsWritten);
      g.writeNumberField("rowsSkipped", rowsSkipped);
      counts(g, "skipped", skipped);
      g.writeNumberField("rowsWithUnknownFields", rowsWithUnknownFields);
      counts(g, "unknownFields", unknownFields);
      g.writeNumberField("rowsDeadLettered", rowsDeadLettered);
      g.writeNumberField("insertsDeadLettered", insertsDeadLettered);
      g.writeNumberField("retries", retries);
      g.writeNumberField("batchesReplayed", batchesReplayed);
      g.writeNumberField("rowsReplayed", rowsReplayed);
      g.writeNumberField("duplicates", duplicates);
      g.writeNumberField("rowsInDoubt", rowsInDoubt);
      g.writeNumberField("rowsLost", rowsLost);
      g.writeNumberField("rowsWrittenPastCheckpoint", rowsWrittenPastCheckpoint);
      g.writeNumberField("chunksAbandoned", chunksAbandoned);
      g.writeNumberField("bytesWritten", bytesWritten);
      g.writeNumberField("elapsedSeconds", Math.round(elapsedSeconds * 1000) / 1000.0);
      g.writeNumberField("rowsPerSecond", Math.round(rowsPerSecond()));
      g.writeNumberField("megabytesPerSecond", Math.round(megabytesPerSecond() * 100) / 100.0);
      g.writeObjectFieldStart("checkpoint");
      g.writeNumberField("offset", checkpointOffset);
      g.writeNumberField("rows", checkpointRows);
      g.writeStringField("file", checkpointFile);
      g.writeEndObject();
      g.writeStringField("note", note);
      g.writeStringField("error", error);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void counts(JsonGenerator g, String name, Map<String, Long> counts)
      throws IOException {
    g.writeObjectFieldStart(name);
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }
}
