package dev.handoff.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A {@link LineParser}'s JSON: the token factory, made at once, and the tree mapper, made on its
 * first use. Most input never needs a tree (flat rows, decimals of up to 18 digits), and the
 * first {@link ObjectMapper} of a JVM costs about 60 ms of CPU in class initialization (its
 * default date format loads the calendar and the locale's data): a fifth of an ingest's start-up.
 *
 * <p>Not thread-safe: one per {@link LineParser}, used by its thread only.
 */
final class TreeMapper {

  private final boolean exactDecimals;
  private final JsonFactory factory;
  private ObjectMapper mapper;

  /**
   * Creates the factory; the mapper comes later.
   *
   * @param exactDecimals whether the mapper reads numbers with a fraction as exact decimals
   */
  TreeMapper(boolean exactDecimals) {
    this.exactDecimals = exactDecimals;
    // Jackson's own double parser: the same correctly rounded value, without a String per number.
    this.factory = JsonFactory.builder().enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build();
  }

  /** Returns the token factory (its parsers have no codec: trees come from {@link #get()}). */
  JsonFactory factory() {
    return factory;
  }

  /** Returns the mapper over {@link #factory()}, making it on the first call. */
  ObjectMapper get() {
    ObjectMapper m = mapper;
    if (m == null) {
      m = new ObjectMapper(factory);
      if (exactDecimals) {
        m.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
      }
      mapper = m;
    }
    return m;
  }
}
