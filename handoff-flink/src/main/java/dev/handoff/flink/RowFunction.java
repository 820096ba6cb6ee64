package dev.handoff.flink;

import java.io.Serializable;
import java.util.function.ToLongFunction;

/**
 * A serializable function from a row to a {@code long}: a routing key or an event time in epoch
 * milliseconds.
 *
 * @param <T> the row type
 */
@FunctionalInterface
public interface RowFunction<T> extends ToLongFunction<T>, Serializable {}
