package dev.handoff.clickhouse.row;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.TableSchema;
import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Row adapters for common payload types. Each returned accessor is immutable and shareable; the
 * per-row work is a field read and a {@link dev.handoff.api.row.ValueKind} test, with no
 * reflection and no allocation for primitive values.
 *
 * <h2>Kinds</h2>
 *
 * <p>Every adapter here classifies a Java value the same way:
 *
 * <table>
 *   <caption>Kinds of Java values</caption>
 *   <tr><th>Java value</th><th>kind</th></tr>
 *   <tr><td>{@code null}, a missing map key</td><td>NULL</td></tr>
 *   <tr><td>{@code Boolean}, {@code boolean}</td><td>BOOLEAN</td></tr>
 *   <tr><td>{@code Long}, {@code Integer}, {@code Short}, {@code Byte}, their primitives,
 *       {@code AtomicLong}, {@code AtomicInteger}</td><td>LONG</td></tr>
 *   <tr><td>{@code Double}, {@code Float}, their primitives</td><td>DOUBLE</td></tr>
 *   <tr><td>{@code BigInteger}</td><td>BIG_INTEGER</td></tr>
 *   <tr><td>{@code BigDecimal}</td><td>BIG_DECIMAL</td></tr>
 *   <tr><td>any {@code CharSequence}; {@code Character}, {@code char} and {@code char[]} (read
 *       as a new {@code String}); a Java {@code enum} constant (read as its {@code name()}, so
 *       it meets Enum columns by name)</td><td>TEXT</td></tr>
 *   <tr><td>{@code byte[]}</td><td>BYTES</td></tr>
 *   <tr><td>{@code UUID}</td><td>UUID</td></tr>
 *   <tr><td>{@code Instant}, {@code LocalDate}, {@code LocalDateTime}, {@code OffsetDateTime},
 *       {@code ZonedDateTime}</td><td>TEMPORAL</td></tr>
 *   <tr><td>{@code InetAddress}</td><td>INET</td></tr>
 *   <tr><td>{@code Object[]}, any {@code Collection}, {@code long[]}, {@code int[]},
 *       {@code short[]}, {@code double[]}, {@code float[]}, {@code boolean[]}</td>
 *       <td>SEQUENCE</td></tr>
 *   <tr><td>any {@code Map}</td><td>MAP</td></tr>
 *   <tr><td>anything else (other {@code Number}s, other {@code java.time} types, {@code
 *       Optional}, nested records, ...)</td><td>OTHER</td></tr>
 * </table>
 *
 * <p>The kind depends on the value's class only and is found without allocating (the commonest
 * classes by identity, the rest through a per-class cache). A primitive record component or
 * bean property has a constant kind and is read without boxing.
 *
 * <h2>Nested values</h2>
 *
 * <p>For a SEQUENCE or MAP field, {@code getObject} returns a container that {@link #values()}
 * (which {@code nested} returns, a shared instance) reads in O(1) per element:
 *
 * <ul>
 *   <li>an array or a random-access {@code List} as it is (a primitive array's elements come out
 *       of {@code getLong}, {@code getDouble}, {@code getBoolean} without boxing);
 *   <li>another {@code Collection} (a {@code Set}, a {@code LinkedList}) as its {@code
 *       toArray()}: one array per read;
 *   <li>a {@code Map} as its flattened entries {@code {key0, value0, key1, value1, ...}} in the
 *       map's iteration order: one array per read. {@code size} is twice the entries, field
 *       {@code 2i} is key {@code i} and {@code 2i+1} value {@code i}.
 * </ul>
 *
 * <p>So a map value costs one allocation per read and every other value none. Nothing is cached:
 * accessors stay stateless and safe to share between threads.
 */
public final class RowAccessors {
  private RowAccessors() {}

  /** Returns an accessor for {@code Object[]} rows, column {@code i} at index {@code i}. */
  public static RowAccessor<Object[]> objectArray() {
    return ObjectArrayAccessor.INSTANCE;
  }

  /**
   * Returns an accessor for rows whose fields {@code reader} returns as Java values, column {@code
   * i} being field {@code i}: for row types of other libraries (a Flink {@code Row}, say) without
   * copying them into arrays. Values are classified and converted as in {@link #objectArray()}.
   */
  public static <T> RowAccessor<T> fields(FieldReader<T> reader) {
    return new FieldAccessor<>(Objects.requireNonNull(reader, "reader"));
  }

  /**
   * Reads one field of a row as a Java value, for {@link #fields(FieldReader)}.
   *
   * @param <T> the row type
   */
  @FunctionalInterface
  public interface FieldReader<T> {

    /** Returns field {@code field} of {@code row} (column {@code field} of the table), or null. */
    Object get(T row, int field);
  }

  /**
   * Returns an accessor for {@code List} rows, column {@code i} at index {@code i} (so a
   * random-access list, such as {@code ArrayList} or {@code List.of}, reads in O(1)).
   */
  public static RowAccessor<List<?>> list() {
    return ListAccessor.INSTANCE;
  }

  /**
   * Returns an accessor for {@code Map<String, ?>} rows, columns looked up by the schema's names.
   * A missing key reads as null.
   */
  public static RowAccessor<Map<String, ?>> map(TableSchema schema) {
    return new MapAccessor(Objects.requireNonNull(schema, "schema"));
  }

  /**
   * Returns an accessor for instances of a Java record, columns matched to record components by
   * name once, here; every schema column must have a component (components without a column are
   * ignored). Each component is read through a method handle of its accessor; primitive
   * components are read without boxing.
   *
   * @param lookup a lookup with access to the record class (pass {@code MethodHandles.lookup()}
   *     from the record's own module when it is not exported)
   * @throws IllegalArgumentException if a column has no component of the same name (the message
   *     lists the components), or if {@code lookup} cannot access an accessor
   */
  public static <R extends Record> RowAccessor<R> records(Class<R> type, TableSchema schema,
      MethodHandles.Lookup lookup) {
    return new PropertyAccessor<>(Properties.ofRecord(type, schema, lookup));
  }

  /**
   * Returns an accessor for Java beans, columns matched to getters ({@code getX}/{@code isX}) or
   * public fields by name once, here. A column {@code userId} (or {@code UserId}) finds {@code
   * getUserId()}, {@code isUserId()} (for a {@code boolean} or {@code Boolean}; preferred over
   * {@code getUserId()}) or a public field {@code userId}; only public, non-static members
   * count. Primitive properties are read without boxing.
   *
   * @param lookup a lookup with access to the bean class (pass {@code MethodHandles.lookup()}
   *     from the bean's own module when it is not exported)
   * @throws IllegalArgumentException if a column has no getter or field of the same name (the
   *     message lists the properties), or if {@code lookup} cannot access one
   */
  public static <B> RowAccessor<B> beans(Class<B> type, TableSchema schema,
      MethodHandles.Lookup lookup) {
    return new PropertyAccessor<>(Properties.ofBean(type, schema, lookup));
  }

  /**
   * Returns the accessor for nested Java values: a container ({@code List}, {@code Object[]}, a
   * primitive array, a {@code Map}) read as fields. Maps are read as key, value, key, value.
   *
   * <p>It reads the containers {@code getObject} returns in O(1) per field (see the class
   * documentation). A {@code Map}, or a {@code Collection} that is not a random-access {@code
   * List}, passed in directly is read too, by walking to the field, which is O(n) per field.
   * {@code size} is the number of elements, twice the entries of a map. The instance is shared.
   */
  public static RowAccessor<Object> values() {
    return ValuesAccessor.INSTANCE;
  }
}
