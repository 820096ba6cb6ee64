package dev.handoff.core.sink;

import java.util.concurrent.atomic.AtomicLong;

/** One shard's counters; written by its worker (and by shutdown), read by anyone. */
final class Counters {
  final AtomicLong inserts = new AtomicLong();
  final AtomicLong rowsWritten = new AtomicLong();
  final AtomicLong bytesWritten = new AtomicLong();
  final AtomicLong retries = new AtomicLong();
  final AtomicLong deadLetteredRows = new AtomicLong();
  final AtomicLong deadLetteredInserts = new AtomicLong();
  final AtomicLong abandonedChunks = new AtomicLong();
  final AtomicLong abandonedRows = new AtomicLong();
  final AtomicLong failedAtShutdownChunks = new AtomicLong();
  final AtomicLong failedAtShutdownRows = new AtomicLong();
}
