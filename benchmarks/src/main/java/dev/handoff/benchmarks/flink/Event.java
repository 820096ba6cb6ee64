package dev.handoff.benchmarks.flink;

import java.time.Instant;

/**
 * One row of the Flink benchmark's narrow table, as a job would carry it: a Java record whose
 * component names are the table's column names ({@code id UInt64, ts DateTime, name String, kind
 * String, value Float64, count UInt32}).
 *
 * @param id the row's number, 1 to N: the check sums it
 * @param ts the event time, whole seconds
 * @param name a short text (9 characters)
 * @param kind one of eight short texts
 * @param value a double
 * @param count a number below 100,000
 */
public record Event(long id, Instant ts, String name, String kind, double value, long count) {}
