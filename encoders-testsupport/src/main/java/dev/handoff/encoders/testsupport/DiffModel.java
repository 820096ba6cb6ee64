package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffJson.jsonLines;
import static dev.handoff.encoders.testsupport.DiffShow.show;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.handoff.clickhouse.type.ClickHouseType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * The model of the differential properties: a generated table ({@link Case}) of {@link Column}s
 * and rows of values ({@link V}), the row shapes, how a format frames the rows ({@link
 * Framing}), bad values ({@link Bad}), and the seeded pickers the generators share.
 */
public final class DiffModel {
  private DiffModel() {}

  /* ================================================================== The case */

  /** Rows handed to the encoder as {@code List}s. */
  public static final int LIST_ROWS = 0;
  /** Rows handed to the encoder as {@code Object[]}s. */
  public static final int ARRAY_ROWS = 1;
  /** Rows handed to the encoder as {@code Map}s by column name. */
  public static final int MAP_ROWS = 2;
  /** Rows handed to the encoder as JSON lines through {@code JsonRows}. */
  public static final int JSON_ROWS = 3;

  /** The JSON mapper of the JSON-lines rows. */
  public static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A column of the generated table.
   *
   * @param name the column's name
   * @param type the column's type
   */
  public record Column(String name, ClickHouseType type) {
    /** Returns {@code name type}, as a column definition reads. */
    @Override
    public String toString() {
      return name + " " + type;
    }
  }

  /**
   * A generated value: {@code input}, handed to the encoder, and {@code expected}, the canonical
   * value the column must hold. {@code parts} are the values a composite was built from (the
   * elements of an Array, Tuple or Nested, keys and values alternating for a Map), kept for
   * shrinking.
   *
   * @param input the Java value handed to the encoder
   * @param expected the canonical value the column must hold (a {@link Bad} for a bad value)
   * @param parts the values a composite was built from
   */
  public record V(Object input, Object expected, List<V> parts) {
    /** Returns a value without parts. */
    public static V of(Object input, Object expected) {
      return new V(input, expected, List.of());
    }

    /** Shows the input with its Java type, then the expected value. */
    @Override
    public String toString() {
      return show(input) + " ⇒ " + expected;
    }
  }

  /**
   * How a format frames a case's rows (a header or not, how many blocks): drawn by the format's
   * {@link DiffTypes.CaseFormat}, kept through shrinking, and shown in reports.
   */
  public interface Framing {
    /** Returns the text a case's description gets after its row shape ({@code ""} for none). */
    String describe();
  }

  /**
   * One generated table: columns, rows of values, how the rows are given to the encoder and how
   * the format frames them.
   *
   * @param columns the table's columns
   * @param rows the rows, one value per column
   * @param shape how rows reach the encoder: {@link #LIST_ROWS}, {@link #ARRAY_ROWS}, {@link
   *     #MAP_ROWS} or {@link #JSON_ROWS}
   * @param framing how the format frames the rows
   */
  public record Case(List<Column> columns, List<List<V>> rows, int shape, Framing framing) {
    /** Returns the canonical values of the good rows (a row with a {@link Bad} cell is refused). */
    public List<List<Object>> expectedRows() {
      List<List<Object>> out = new ArrayList<>();
      for (List<V> row : rows) {
        if (isBad(row)) {
          continue;
        }
        List<Object> r = new ArrayList<>();
        for (V v : row) {
          r.add(v.expected());
        }
        out.add(r);
      }
      return out;
    }

    /** Returns this case with only the columns at {@code keep}, in that order. */
    public Case keepColumns(List<Integer> keep) {
      List<Column> cols = new ArrayList<>();
      for (int i : keep) {
        cols.add(columns.get(i));
      }
      List<List<V>> rs = new ArrayList<>();
      for (List<V> row : rows) {
        List<V> r = new ArrayList<>();
        for (int i : keep) {
          r.add(row.get(i));
        }
        rs.add(r);
      }
      return new Case(cols, rs, shape, framing);
    }

    /** Returns this case with other rows. */
    public Case withRows(List<List<V>> rs) {
      return new Case(columns, rs, shape, framing);
    }

    /** Returns this case with another shape (how rows reach the encoder). */
    public Case withShape(int newShape) {
      return new Case(columns, rows, newShape, framing);
    }

    /** Returns this case with column {@code i} of type {@code type}, its values mapped by {@code map}. */
    public Case withColumn(int i, ClickHouseType type, UnaryOperator<V> map) {
      List<Column> cols = new ArrayList<>(columns);
      cols.set(i, new Column(columns.get(i).name(), type));
      List<List<V>> rs = new ArrayList<>();
      for (List<V> row : rows) {
        List<V> r = new ArrayList<>(row);
        r.set(i, map.apply(row.get(i)));
        rs.add(r);
      }
      return new Case(cols, rs, shape, framing);
    }

    /** Returns this case with the value at {@code row}, {@code column} replaced by {@code v}. */
    public Case withCell(int row, int column, V v) {
      List<List<V>> rs = new ArrayList<>(rows);
      List<V> r = new ArrayList<>(rows.get(row));
      r.set(column, v);
      rs.set(row, r);
      return new Case(columns, rs, shape, framing);
    }

    /** Describes the case for a report: columns, row shape, framing and every row. */
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      sb.append(columns.size()).append(" column(s) ").append(columns).append(", ")
          .append(rows.size()).append(" row(s) as ")
          .append(shape == LIST_ROWS ? "List" : shape == ARRAY_ROWS ? "Object[]"
              : shape == MAP_ROWS ? "Map" : "JSON lines")
          .append(framing.describe()).append(':');
      List<String> json = shape == JSON_ROWS ? jsonLines(this) : null;
      for (int r = 0; r < rows.size(); r++) {
        sb.append("\n    row ").append(r).append(": ")
            .append(json == null ? rows.get(r).toString() : json.get(r));
      }
      return sb.toString();
    }
  }

  /* ================================================================== Bad values */

  /**
   * The canonical value of a bad cell: the encoder must refuse the row with a DATA error, and the
   * row is in no output. {@code json} is its JSON form.
   *
   * @param json the bad value as JSON
   */
  public record Bad(String json) {
    /** Returns {@code BAD} and the JSON form. */
    @Override
    public String toString() {
      return "BAD " + json;
    }
  }

  /** Returns whether a cell of {@code row} is {@link Bad}. */
  public static boolean isBad(List<V> row) {
    for (V v : row) {
      if (v.expected() instanceof Bad) {
        return true;
      }
    }
    return false;
  }

  /* ================================================================== Seeded picks */

  /** Returns one of {@code options}, drawn from {@code r}. */
  @SafeVarargs
  public static <T> T pick(SplittableRandom r, T... options) {
    return options[r.nextInt(options.length)];
  }

  /** Returns one of {@code options}, drawn from {@code r}. */
  public static int pickInt(SplittableRandom r, int... options) {
    return options[r.nextInt(options.length)];
  }

  /** Returns one of {@code options}, drawn from {@code r}. */
  public static long pickLong(SplittableRandom r, long... options) {
    return options[r.nextInt(options.length)];
  }

  /** Returns one of {@code options}, drawn from {@code r}. */
  public static float pickFloat(SplittableRandom r, float... options) {
    return options[r.nextInt(options.length)];
  }

  /** Returns one of {@code options}, drawn from {@code r}. */
  public static double pickDouble(SplittableRandom r, double... options) {
    return options[r.nextInt(options.length)];
  }
}
