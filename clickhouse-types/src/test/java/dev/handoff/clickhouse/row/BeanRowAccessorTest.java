package dev.handoff.clickhouse.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.ColumnSpec;
import dev.handoff.api.TableSchema;
import dev.handoff.clickhouse.row.Walk.Pairs;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class BeanRowAccessorTest {

  interface HasValue<T> {
    T getValue();
  }

  public static class Base {
    public String getInherited() {
      return "from base";
    }
  }

  /** A bean with every shape of property the adapter reads, and some it must not. */
  public static final class Bean extends Base implements HasValue<String> {
    public int count = 3;
    public static String shared = "static field";
    private long id = 1L << 33;
    private Boolean verified;

    public long getId() {
      return id;
    }

    public void setId(long id) {
      this.id = id;
    }

    public boolean isActive() {
      return true;
    }

    /** {@code isActive} wins over this. */
    public boolean getActive() {
      return false;
    }

    public Boolean isVerified() {
      return verified;
    }

    public void setVerified(Boolean verified) {
      this.verified = verified;
    }

    public String getURL() {
      return "https://example.org";
    }

    /** Implements the generic interface; the compiler adds an {@code Object getValue()} bridge. */
    @Override
    public String getValue() {
      return "v";
    }

    public double getScore() {
      return 99.5;
    }

    public float getRatio() {
      return 0.5f;
    }

    public byte getSmall() {
      return -1;
    }

    public char getInitial() {
      return 'J';
    }

    public List<String> getTags() {
      return List.of("a", "b");
    }

    public Map<String, List<Integer>> getAttrs() {
      return Map.of("k", List.of(1));
    }

    public static String getStatic() {
      return "not a property";
    }

    public String getWithArg(int i) {
      return "not a property";
    }

    public void getNothing() {}

    public String getBroken() throws IOException {
      throw new IOException("disk gone");
    }
  }

  private static TableSchema schema(String... names) {
    return new TableSchema(Arrays.stream(names).map(n -> new ColumnSpec(n, "String")).toList());
  }

  @Test
  void gettersAndPublicFields_readByName() {
    RowAccessor<Bean> acc = RowAccessors.beans(Bean.class,
        schema("id", "active", "verified", "URL", "value", "score", "ratio", "small", "initial",
            "tags", "attrs", "count", "inherited"),
        MethodHandles.lookup());
    Bean bean = new Bean();

    assertThat(Walk.kinds(acc, bean, 13)).containsExactly(ValueKind.LONG, ValueKind.BOOLEAN,
        ValueKind.NULL, ValueKind.TEXT, ValueKind.TEXT, ValueKind.DOUBLE, ValueKind.DOUBLE,
        ValueKind.LONG, ValueKind.TEXT, ValueKind.SEQUENCE, ValueKind.MAP, ValueKind.LONG,
        ValueKind.TEXT);
    assertThat(Walk.row(acc, bean, 13)).containsExactly(1L << 33, true, null,
        "https://example.org", "v", 99.5, 0.5, -1L, "J", List.of("a", "b"),
        Pairs.of("k", List.of(1L)), 3L, "from base");

    bean.setVerified(Boolean.TRUE);
    bean.setId(-8);
    assertThat(acc.kind(bean, 2)).isEqualTo(ValueKind.BOOLEAN);
    assertThat(acc.getBoolean(bean, 2)).isTrue();
    assertThat(acc.getLong(bean, 0)).as("read live, not cached").isEqualTo(-8L);
  }

  @Test
  void capitalizedColumnName_findsTheGetter() {
    RowAccessor<Bean> acc = RowAccessors.beans(Bean.class, schema("Id", "Score"),
        MethodHandles.lookup());

    assertThat(acc.getLong(new Bean(), 0)).isEqualTo(1L << 33);
    assertThat(acc.getDouble(new Bean(), 1)).isEqualTo(99.5);
  }

  @Test
  void missingColumns_areNamedWithTheAvailableProperties() {
    assertThatThrownBy(() -> RowAccessors.beans(Bean.class,
        schema("id", "url", "class", "static", "withArg", "nothing", "shared"),
        MethodHandles.lookup()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bean " + Bean.class.getName())
        .hasMessageContaining(
            "no getter or public field for columns url, class, static, withArg, nothing, shared")
        .hasMessageContaining("available: URL, active, attrs, broken, count, id, inherited,"
            + " initial, ratio, score, small, tags, value, verified");
  }

  @Test
  void getterThrowingACheckedException_isWrapped() {
    RowAccessor<Bean> acc = RowAccessors.beans(Bean.class, schema("broken"),
        MethodHandles.lookup());

    assertThatThrownBy(() -> acc.kind(new Bean(), 0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("reading property broken failed")
        .hasCauseInstanceOf(IOException.class);
  }
}
