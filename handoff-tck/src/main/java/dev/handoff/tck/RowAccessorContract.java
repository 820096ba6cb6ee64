package dev.handoff.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The {@link RowAccessor} contract: each field has the expected {@link ValueKind}, the getter of
 * that kind returns the expected value, nulls read as null, nested containers read through {@link
 * RowAccessor#nested}, reads are independent of one another, and a field outside the row fails.
 *
 * <p>A test class extends it once per accessor and supplies the accessor and sample rows, each
 * with the value expected in each column:
 *
 * <pre>{@code
 * final class MyAccessorContractTest extends RowAccessorContract<MyRow> {
 *   protected RowAccessor<MyRow> accessor() { return MyRow.ACCESSOR; }
 *   protected List<Sample<MyRow>> samples() {
 *     return List.of(new Sample<>("a row", new MyRow(7, "x", null),
 *         List.of(Expected.ofLong(7), Expected.ofText("x"), Expected.ofNull())));
 *   }
 * }
 * }</pre>
 *
 * <p>What is checked is what {@link RowAccessor} documents: an encoder calls {@code kind} and then
 * the getter of that kind, so only that getter is read (an adapter never has to convert, and the
 * other getters are not part of the contract); {@code isNull} agrees with {@code kind}; {@code
 * getObject} is {@code null} exactly for {@code NULL}; a {@code SEQUENCE} or {@code MAP} field's
 * container ({@code getObject}) is read by the accessor {@code nested} returns, as fields {@code
 * 0..size-1} (a map as key, value, key, value); {@code size} of a top-level row is the column
 * count or {@code -1}; an accessor may be shared by every shard (reads in any order and from
 * several threads agree); a field index outside the row throws {@link IndexOutOfBoundsException};
 * an accessor without nested values throws {@link UnsupportedOperationException} from {@code
 * nested}.
 *
 * @param <T> the payload type
 */
public abstract class RowAccessorContract<T> {

  /** Creates the suite; subclasses supply the accessor and the samples. */
  protected RowAccessorContract() {}

  /**
   * The value one field must read as: its kind, and what the getter of that kind returns.
   *
   * <p>{@code value} is a {@code Boolean}, {@code Long}, {@code Double}, {@code BigInteger},
   * {@code BigDecimal} (compared with {@code equals}, so the scale counts), {@code String} (the
   * text's {@code toString()}), {@code byte[]} (compared by content), the object {@code getObject}
   * returns (compared with {@code equals}) for {@code UUID}, {@code TEMPORAL}, {@code INET} and
   * {@code OTHER}, a {@code List<Expected>} of the elements for {@code SEQUENCE} and of the keys
   * and values, alternating, for {@code MAP}, and {@code null} for {@code NULL}. Doubles are
   * compared as {@link Double#compare} does: {@code NaN} equals {@code NaN}, {@code -0.0} differs
   * from {@code 0.0}.
   *
   * @param kind the kind {@code RowAccessor.kind} must return
   * @param value what the getter of that kind must return, as above
   */
  public record Expected(ValueKind kind, Object value) {

    /** Checks that the kind is given and that {@code NULL} goes with a {@code null} value. */
    public Expected {
      Objects.requireNonNull(kind, "kind");
      if ((kind == ValueKind.NULL) != (value == null)) {
        throw new IllegalArgumentException("kind " + kind + " with value " + value
            + " (expected: a null value exactly for NULL)");
      }
    }

    /** Returns a null field. */
    public static Expected ofNull() {
      return new Expected(ValueKind.NULL, null);
    }

    /** Returns a {@code BOOLEAN} field read by {@code getBoolean}. */
    public static Expected ofBoolean(boolean value) {
      return new Expected(ValueKind.BOOLEAN, value);
    }

    /** Returns a {@code LONG} field read by {@code getLong}. */
    public static Expected ofLong(long value) {
      return new Expected(ValueKind.LONG, value);
    }

    /** Returns a {@code DOUBLE} field read by {@code getDouble}. */
    public static Expected ofDouble(double value) {
      return new Expected(ValueKind.DOUBLE, value);
    }

    /** Returns a {@code BIG_INTEGER} field read by {@code getBigInteger}. */
    public static Expected ofBigInteger(BigInteger value) {
      return new Expected(ValueKind.BIG_INTEGER, value);
    }

    /** Returns a {@code BIG_DECIMAL} field read by {@code getBigDecimal}, scale included. */
    public static Expected ofBigDecimal(BigDecimal value) {
      return new Expected(ValueKind.BIG_DECIMAL, value);
    }

    /** Returns a {@code TEXT} field whose {@code getText(...).toString()} is {@code value}. */
    public static Expected ofText(String value) {
      return new Expected(ValueKind.TEXT, value);
    }

    /** Returns a {@code BYTES} field whose {@code getBytes} has the content of {@code value}. */
    public static Expected ofBytes(byte[] value) {
      return new Expected(ValueKind.BYTES, value.clone());
    }

    /**
     * Returns a field of kind {@code UUID}, {@code TEMPORAL}, {@code INET} or {@code OTHER}
     * whose {@code getObject} equals {@code value}.
     */
    public static Expected ofObject(ValueKind kind, Object value) {
      if (kind != ValueKind.UUID && kind != ValueKind.TEMPORAL && kind != ValueKind.INET
          && kind != ValueKind.OTHER) {
        throw new IllegalArgumentException(kind + " is not read with getObject alone");
      }
      return new Expected(kind, Objects.requireNonNull(value, "value"));
    }

    /** Returns a {@code SEQUENCE} field whose elements read as {@code elements}. */
    public static Expected sequence(Expected... elements) {
      return new Expected(ValueKind.SEQUENCE, List.of(elements));
    }

    /**
     * Returns a {@code MAP} field whose entries read, in the container's order, as {@code
     * keysAndValues}: key 0, value 0, key 1, value 1, ...
     */
    public static Expected map(Expected... keysAndValues) {
      if (keysAndValues.length % 2 != 0) {
        throw new IllegalArgumentException("a map needs a value for every key");
      }
      return new Expected(ValueKind.MAP, List.of(keysAndValues));
    }
  }

  /**
   * One sample row and the values its columns must read as.
   *
   * @param name a short name for assertion messages
   * @param row the row
   * @param columns the expected value of each column, in column order
   * @param <T> the payload type
   */
  public record Sample<T>(String name, T row, List<Expected> columns) {

    /** Copies the columns. */
    public Sample {
      Objects.requireNonNull(name, "name");
      columns = List.copyOf(columns);
    }
  }

  /** Returns the accessor under test. */
  protected abstract RowAccessor<T> accessor();

  /**
   * Returns sample rows, each with the value expected in every column. Cover every kind the
   * accessor produces, nulls, and nested values when it reads them.
   */
  protected abstract List<Sample<T>> samples();

  /**
   * Returns whether the accessor reads nested values. {@code true} by default; an accessor that
   * does not returns {@code false}, and its {@code nested} must then throw {@link
   * UnsupportedOperationException}.
   */
  protected boolean readsNested() {
    return true;
  }

  /** Checks that there is a sample and that every sample has a column. */
  @Test
  public void samplesAreUsable() {
    assertThat(samples()).as("samples() must give at least one row").isNotEmpty()
        .allSatisfy(s -> assertThat(s.columns()).as("the columns of sample %s", s.name())
            .isNotEmpty());
  }

  /**
   * Checks every field of every sample, nested elements included: its kind and the value of the
   * getter of that kind (nulls are checked by {@link #nullsReadAsNull()}).
   */
  @Test
  public void everyFieldReadsAsExpected() {
    RowAccessor<T> accessor = accessor();
    for (Sample<T> s : samples()) {
      for (int i = 0; i < s.columns().size(); i++) {
        check(accessor, s.row(), i, s.columns().get(i), s.name() + ", column " + i);
      }
    }
  }

  /**
   * Checks that nulls read as the interface says, at every depth: {@code kind} is {@code NULL}
   * exactly when {@code isNull} is true and exactly when {@code getObject} is {@code null}.
   */
  @Test
  public void nullsReadAsNull() {
    RowAccessor<T> accessor = accessor();
    for (Sample<T> s : samples()) {
      for (int i = 0; i < s.columns().size(); i++) {
        checkNulls(accessor, s.row(), i, s.columns().get(i), s.name() + ", column " + i);
      }
    }
  }

  /**
   * Checks that {@code size} of a top-level row is its column count or {@code -1}, as the
   * interface allows.
   */
  @Test
  public void sizeOfARowIsTheColumnCountOrUnknown() {
    RowAccessor<T> accessor = accessor();
    for (Sample<T> s : samples()) {
      assertThat(accessor.size(s.row()))
          .as("size of sample %s: its column count (%d) or -1", s.name(), s.columns().size())
          .isIn(-1, s.columns().size());
    }
  }

  /**
   * Checks that reads are independent, as a shareable accessor's must be: the samples read in
   * reverse order, fields last to first, give the same values.
   */
  @Test
  public void readsDoNotDependOnOrder() {
    RowAccessor<T> accessor = accessor();
    List<Sample<T>> reversed = new ArrayList<>(samples());
    Collections.reverse(reversed);
    for (Sample<T> s : reversed) {
      for (int i = s.columns().size() - 1; i >= 0; i--) {
        check(accessor, s.row(), i, s.columns().get(i),
            s.name() + ", column " + i + " (read in reverse order)");
      }
    }
  }

  /** Checks that one accessor serves four threads reading every sample at once. */
  @Test
  public void oneAccessorServesSeveralThreads() throws Exception {
    RowAccessor<T> accessor = accessor();
    List<Sample<T>> samples = samples();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Callable<Void>> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        readers.add(() -> {
          for (int round = 0; round < 50; round++) {
            for (Sample<T> s : samples) {
              for (int i = 0; i < s.columns().size(); i++) {
                check(accessor, s.row(), i, s.columns().get(i),
                    s.name() + ", column " + i + " (four threads)");
              }
            }
          }
          return null;
        });
      }
      for (Future<Void> f : pool.invokeAll(readers, 60, TimeUnit.SECONDS)) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Checks that a field index outside the row (negative, or the column count) fails with an
   * {@link IndexOutOfBoundsException} from {@code kind} and {@code getObject}, instead of reading
   * something.
   */
  @Test
  public void aFieldOutsideTheRowFails() {
    RowAccessor<T> accessor = accessor();
    for (Sample<T> s : samples()) {
      for (int field : new int[] {-1, s.columns().size()}) {
        assertThat(catchThrowable(() -> accessor.kind(s.row(), field)))
            .as("kind(%s, %d): a field outside the row's %d columns", s.name(), field,
                s.columns().size())
            .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(catchThrowable(() -> accessor.getObject(s.row(), field)))
            .as("getObject(%s, %d): a field outside the row's %d columns", s.name(), field,
                s.columns().size())
            .isInstanceOf(IndexOutOfBoundsException.class);
      }
    }
  }

  /**
   * Checks that an accessor that does not read nested values ({@link #readsNested()} false)
   * throws {@link UnsupportedOperationException} from {@code nested}, as the interface says.
   */
  @Test
  public void nestedIsUnsupportedWhenNotRead() {
    if (readsNested()) {
      return;
    }
    Sample<T> s = samples().get(0);
    assertThat(catchThrowable(() -> accessor().nested(s.row(), 0)))
        .as("nested(%s, 0) of an accessor that reads no nested values", s.name())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  /** Checks one field against its expected value, recursing into containers. */
  private static <X> void check(RowAccessor<X> accessor, X row, int field, Expected expected,
      String where) {
    ValueKind kind = accessor.kind(row, field);
    assertThat(kind).as("kind of %s", where).isEqualTo(expected.kind());
    Object want = expected.value();
    switch (kind) {
      case NULL -> { }
      case BOOLEAN -> assertThat(accessor.getBoolean(row, field)).as("getBoolean of %s", where)
          .isEqualTo(want);
      case LONG -> assertThat(accessor.getLong(row, field)).as("getLong of %s", where)
          .isEqualTo(want);
      case DOUBLE -> {
        double got = accessor.getDouble(row, field);
        assertThat(Double.compare(got, (Double) want))
            .as("getDouble of %s is %s, expected %s", where, got, want).isZero();
      }
      case BIG_INTEGER -> assertThat(accessor.getBigInteger(row, field))
          .as("getBigInteger of %s", where).isEqualTo(want);
      case BIG_DECIMAL -> assertThat(accessor.getBigDecimal(row, field))
          .as("getBigDecimal of %s (scale included)", where).isEqualTo(want);
      case TEXT -> {
        CharSequence text = accessor.getText(row, field);
        assertThat(text).as("getText of %s", where).isNotNull();
        assertThat(text.toString()).as("getText of %s", where).isEqualTo(want);
      }
      case BYTES -> {
        assertThat(accessor.getBytes(row, field)).as("getBytes of %s", where).isEqualTo(want);
        byte[] bytes = (byte[]) want;
        ChunkBuffer wanted = new ChunkBuffer(bytes.length + 10);
        wanted.writeVarUInt(bytes.length);
        wanted.writeBytes(bytes);
        ChunkBuffer written = new ChunkBuffer(bytes.length + 10);
        accessor.writeBytesWithLength(row, field, written);
        assertThat(written.toByteArray()).as("writeBytesWithLength of %s", where)
            .isEqualTo(wanted.toByteArray());
      }
      case UUID, TEMPORAL, INET, OTHER -> assertThat(accessor.getObject(row, field))
          .as("getObject of %s", where).isEqualTo(want);
      case SEQUENCE, MAP -> checkContainer(accessor, row, field, expected, where);
      default -> throw new AssertionError("kind " + kind + " of " + where + " is not known");
    }
  }

  /** Checks a SEQUENCE or MAP field: its container read through {@code nested}, element-wise. */
  @SuppressWarnings("unchecked")
  private static <X> void checkContainer(RowAccessor<X> accessor, X row, int field,
      Expected expected, String where) {
    List<Expected> elements = (List<Expected>) expected.value();
    Object container = accessor.getObject(row, field);
    RowAccessor<Object> nested = accessor.nested(row, field);
    assertThat(nested).as("nested(%s): the accessor of its container", where).isNotNull();
    assertThat(nested.size(container))
        .as("size of the container of %s (%s)", where, expected.kind() == ValueKind.MAP
            ? "twice the entries of a map" : "its elements")
        .isEqualTo(elements.size());
    for (int i = 0; i < elements.size(); i++) {
      check(nested, container, i, elements.get(i), where + ", element " + i);
    }
  }

  /** Checks that kind, isNull and getObject agree on whether a field is null, at every depth. */
  @SuppressWarnings("unchecked")
  private static <X> void checkNulls(RowAccessor<X> accessor, X row, int field,
      Expected expected, String where) {
    boolean isNull = expected.kind() == ValueKind.NULL;
    assertThat(accessor.kind(row, field) == ValueKind.NULL)
        .as("kind of %s is NULL", where).isEqualTo(isNull);
    assertThat(accessor.isNull(row, field)).as("isNull of %s", where).isEqualTo(isNull);
    Object object = accessor.getObject(row, field);
    assertThat(object == null)
        .as("getObject of %s is null (it is %s)", where, describeObject(object))
        .isEqualTo(isNull);
    if (expected.kind() == ValueKind.SEQUENCE || expected.kind() == ValueKind.MAP) {
      List<Expected> elements = (List<Expected>) expected.value();
      RowAccessor<Object> nested = accessor.nested(row, field);
      for (int i = 0; i < elements.size(); i++) {
        checkNulls(nested, object, i, elements.get(i), where + ", element " + i);
      }
    }
  }

  private static String describeObject(Object o) {
    return o instanceof Object[] array ? Arrays.deepToString(array) : String.valueOf(o);
  }
}
