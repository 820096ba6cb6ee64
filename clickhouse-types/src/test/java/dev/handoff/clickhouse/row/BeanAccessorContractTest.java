package dev.handoff.clickhouse.row;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.tck.RowAccessorContract;
import java.lang.invoke.MethodHandles;
import java.util.Arrays;
import java.util.List;

/**
 * The TCK's RowAccessorContract for {@link RowAccessors#beans}: getters ({@code getX}, {@code
 * isX}) with primitive and boxed types, and a public field.
 */
final class BeanAccessorContractTest
    extends RowAccessorContract<BeanAccessorContractTest.Account> {

  /** A bean: private fields behind getters, one public field. */
  public static final class Account {
    private final long id;
    private final String owner;
    private final boolean active;
    private final Double score;
    /** Read as a public field (no getter). */
    public final List<Integer> codes;

    Account(long id, String owner, boolean active, Double score, List<Integer> codes) {
      this.id = id;
      this.owner = owner;
      this.active = active;
      this.score = score;
      this.codes = codes;
    }

    public long getId() {
      return id;
    }

    public String getOwner() {
      return owner;
    }

    public boolean isActive() {
      return active;
    }

    public Double getScore() {
      return score;
    }
  }

  static final TableSchema SCHEMA = TableSchema.of(new ColumnSpec("id", "UInt64"),
      new ColumnSpec("owner", "Nullable(String)"), new ColumnSpec("active", "Bool"),
      new ColumnSpec("score", "Nullable(Float64)"),
      new ColumnSpec("codes", "Array(Nullable(Int32))"));

  @Override
  protected RowAccessor<Account> accessor() {
    return RowAccessors.beans(Account.class, SCHEMA, MethodHandles.lookup());
  }

  @Override
  protected List<Sample<Account>> samples() {
    return List.of(
        new Sample<>("full", new Account(Long.MIN_VALUE, "ann", true, 0.25,
            Arrays.asList(1, null)), List.of(Expected.ofLong(Long.MIN_VALUE),
            Expected.ofText("ann"), Expected.ofBoolean(true), Expected.ofDouble(0.25),
            Expected.sequence(Expected.ofLong(1), Expected.ofNull()))),
        new Sample<>("empty", new Account(0, null, false, null, null), List.of(
            Expected.ofLong(0), Expected.ofNull(), Expected.ofBoolean(false), Expected.ofNull(),
            Expected.ofNull())));
  }
}
