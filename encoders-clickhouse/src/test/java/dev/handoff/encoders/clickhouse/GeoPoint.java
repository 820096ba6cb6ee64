package dev.handoff.encoders.clickhouse;

/** A geo {@code Point} as a Java record, as a user would hand it to an encoder. */
public record GeoPoint(double x, double y) {}
