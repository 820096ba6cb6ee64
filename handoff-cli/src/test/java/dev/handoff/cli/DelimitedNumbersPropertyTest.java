package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * CSV and TSV numbers read on the parser threads ({@link ColumnPlan#DECIMAL}, {@link
 * ColumnPlan#FLOAT32}, Float64) encode as the text conversions read the same text, or are left
 * to them: random number texts of 1 to 20 digits, the point anywhere or nowhere, leading and
 * trailing zeros, signs, exponents and the ends of each type's range, one column at a time, in
 * CSV and TSV. Both paths must give the same bytes or the same error (column, value, reason). A
 * failure names the seed and the line.
 */
class DelimitedNumbersPropertyTest {

  static final String SCHEMA = "dec Decimal(18, 4), dec9 Decimal(9, 2), dec0 Decimal(18, 0),"
      + " decn Nullable(Decimal(18, 18)), f32 Float32, f64 Float64";
  static final String VALID = "1.5,1.5,1,0.5,1.5,1.5";

  @Test
  void numbers_encodeAsTheirText_orAreLeftToIt() throws Exception {
    TableSchema schema = SchemaText.parse(SCHEMA);
    List<String> columns = schema.columns().stream().map(ColumnSpec::name).toList();
    ColumnPlan plan = ColumnPlan.of(schema, java.time.ZoneOffset.UTC);
    int typed = 0;
    int rows = 0;
    for (long seed = 1; seed <= 4_000; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int column = r.nextInt(columns.size());
      String[] fields = VALID.split(",");
      fields[column] = number(r);
      for (DelimitedText.Kind kind : DelimitedText.Kind.values()) {
        String line = String.join(kind == DelimitedText.Kind.CSV ? "," : "\t", fields);
        String failure = TypedRowsPropertyTest.checkDelimited(schema, columns, "UTC", kind, line);
        if (failure != null) {
          throw new AssertionError("seed " + seed + " " + kind + " column " + columns.get(column)
              + ": " + failure + "\nline: " + line);
        }
        rows++;
        typed += typedKind(columns, plan, kind, line, column) ? 1 : 0;
      }
    }
    // The typed path is taken often, and the text path too.
    assertThat(typed).isBetween(rows / 5, rows - rows / 10);
  }

  /** Whether the parser thread read field {@code column} as a value rather than as text. */
  private static boolean typedKind(List<String> columns, ColumnPlan plan,
      DelimitedText.Kind kind, String line, int column) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    ParsedBlock b = new ParsedBlock(0, bytes.length, 0, bytes);
    new LineParser(columns, true, false, kind, columns, plan).parse(b);
    byte k = b.kinds[column];
    return k == BlockRows.LONG || k == BlockRows.DOUBLE || k == BlockRows.BIG_DECIMAL;
  }

  /** A number's text, valid or nearly so. */
  static String number(SplittableRandom r) {
    String[] special = {"0", "-0", "0.0", "-0.0", "0.0000", "1e400", "-1e400", "1e-400",
        "9999999999999.9999", "99999999999999.9999", "-99999999999999.9999",
        "100000000000000", "99999999999999", "9999999.99", "10000000.00", "0.123456789012345678",
        "16777216", "16777217", "1234567", "12345678", "3.4028235e38", "3.4028236e38",
        "1.4e-45", "7e-46", "nan", "inf", "+1.5", "1.", ".5", "1.5e", "1e+", "00", "01.5",
        "0.00001", "12345678901234567890", "1.50000000000000000000"};
    if (r.nextInt(6) == 0) {
      return special[r.nextInt(special.length)];
    }
    StringBuilder d = new StringBuilder(Long.toString(r.nextLong(1, Long.MAX_VALUE)));
    d.setLength(1 + r.nextInt(d.length()));
    if (r.nextInt(8) == 0) {
      d.insert(0, '0');
    }
    int point = r.nextInt(d.length() + 2);
    if (point > 0 && point < d.length()) {
      d.insert(point, '.');
      for (int z = r.nextInt(3) == 0 ? r.nextInt(4) : 0; z > 0; z--) {
        d.append('0');
      }
    }
    if (r.nextInt(6) == 0) {
      d.append(r.nextBoolean() ? 'e' : 'E').append(r.nextBoolean() ? "-" : "")
          .append(r.nextInt(50));
    }
    return (r.nextBoolean() ? "-" : "") + d;
  }
}
