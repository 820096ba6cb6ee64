package dev.handoff.api.spi;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.TableSchema;
import java.util.Map;

/**
 * Creates {@link RowEncoder}s of one wire format. Found with {@link java.util.ServiceLoader}:
 * declare it with {@code provides} in {@code module-info.java} and in {@code
 * META-INF/services/dev.handoff.api.spi.RowEncoderProvider}, and give it a public no-argument
 * constructor. Keep the implementation in an unexported package.
 *
 * <p>Providers are stateless factories and thread-safe.
 */
public interface RowEncoderProvider {

  /** Returns the format name users select it by, for example {@code rowbinary}. Unique. */
  String name();

  /**
   * Creates an encoder for a table.
   *
   * @param schema the table's columns and types
   * @param accessor how to read the columns of a payload
   * @param options format-specific options, documented by the provider; unknown keys are an error
   * @param <T> the payload type
   * @throws IllegalArgumentException if the schema has a type the format cannot write, a type
   *     string is malformed, or an option is unknown or invalid; the message says which
   */
  <T> RowEncoder<T> create(TableSchema schema, RowAccessor<T> accessor, Map<String, String> options);
}
