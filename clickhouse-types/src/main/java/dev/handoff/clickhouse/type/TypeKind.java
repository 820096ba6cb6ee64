package dev.handoff.clickhouse.type;

/** The ClickHouse type families handoff encodes. */
public enum TypeKind {
  /** {@code Int8}. */
  INT8(1),
  /** {@code Int16}. */
  INT16(2),
  /** {@code Int32}. */
  INT32(4),
  /** {@code Int64}. */
  INT64(8),
  /** {@code Int128}. */
  INT128(16),
  /** {@code Int256}. */
  INT256(32),
  /** {@code UInt8}. */
  UINT8(1),
  /** {@code UInt16}. */
  UINT16(2),
  /** {@code UInt32}. */
  UINT32(4),
  /** {@code UInt64}. */
  UINT64(8),
  /** {@code UInt128}. */
  UINT128(16),
  /** {@code UInt256}. */
  UINT256(32),
  /** {@code Float32}. */
  FLOAT32(4),
  /** {@code Float64}. */
  FLOAT64(8),
  /** {@code Bool}. */
  BOOL(1),
  /** {@code Decimal(P, S)}; the width (4, 8, 16 or 32 bytes) follows from P. */
  DECIMAL(-1),
  /** {@code String}. */
  STRING(-1),
  /** {@code FixedString(N)}. */
  FIXED_STRING(-1),
  /** {@code Date}: UInt16 days since 1970-01-01. */
  DATE(2),
  /** {@code Date32}: Int32 days since 1970-01-01. */
  DATE32(4),
  /** {@code DateTime} or {@code DateTime('zone')}: UInt32 seconds since the epoch. */
  DATETIME(4),
  /** {@code DateTime64(P)} or {@code DateTime64(P, 'zone')}: Int64 ticks of 10^-P s. */
  DATETIME64(8),
  /** {@code UUID}. */
  UUID(16),
  /** {@code IPv4}. */
  IPV4(4),
  /** {@code IPv6}. */
  IPV6(16),
  /** {@code Enum8('name' = value, ...)}. */
  ENUM8(1),
  /** {@code Enum16('name' = value, ...)}. */
  ENUM16(2),
  /** {@code Nullable(T)}. */
  NULLABLE(-1),
  /** {@code Array(T)}. */
  ARRAY(-1),
  /** {@code Tuple(T1, ...)} or {@code Tuple(name1 T1, ...)}. */
  TUPLE(-1),
  /** {@code Map(K, V)}. */
  MAP(-1),
  /** {@code LowCardinality(T)}. */
  LOW_CARDINALITY(-1),
  /**
   * {@code Nested(name1 T1, ...)}, as a single column (servers with {@code flatten_nested=0});
   * encoded exactly as {@code Array(Tuple(T1, ...))}.
   */
  NESTED(-1),
  /** {@code Nothing}, only inside {@code Nullable(Nothing)}; never a table column. */
  NOTHING(-1),

  /* Types of ClickHouse 20-26 besides JSON, Variant and Dynamic (issue 15), in one block. */

  /** {@code BFloat16} (ClickHouse 24.11): the upper 16 bits of a Float32, little-endian. */
  BFLOAT16(2),
  /** {@code Time} (ClickHouse 25.6): Int32 seconds, -999:59:59..999:59:59. */
  TIME(4),
  /** {@code Time64(P)} (ClickHouse 25.6): Int64 ticks of 10^-P s, within +-999:59:59.(9). */
  TIME64(8),
  /**
   * {@code SimpleAggregateFunction(f, T)} (ClickHouse 19.8): a value of T, encoded exactly as T;
   * {@link ClickHouseType#element()} is T and {@link ClickHouseType#function()} is f.
   */
  SIMPLE_AGGREGATE_FUNCTION(-1),
  /**
   * {@code QBit(T, N)} (ClickHouse 25.10): a vector of N elements of T (BFloat16, Float32,
   * Float64 or Int8); RowBinary writes it as {@code Array(T)}, Native as T's bit planes.
   */
  QBIT(-1),
  /** {@code Point} (ClickHouse 20.5): {@code Tuple(Float64, Float64)}. */
  POINT(-1),
  /** {@code Ring} (ClickHouse 20.5): {@code Array(Point)}. */
  RING(-1),
  /** {@code LineString} (ClickHouse 24.4): {@code Array(Point)}. */
  LINE_STRING(-1),
  /** {@code MultiLineString} (ClickHouse 24.8): {@code Array(LineString)}. */
  MULTI_LINE_STRING(-1),
  /** {@code Polygon} (ClickHouse 20.5): {@code Array(Ring)}. */
  POLYGON(-1),
  /** {@code MultiPolygon} (ClickHouse 20.5): {@code Array(Polygon)}. */
  MULTI_POLYGON(-1),

  // --- Variant, Dynamic, JSON (ClickHouse 24.1+, 24.5+, 24.8+) ---
  /**
   * {@code Variant(T1, ...)}: one value of one of its types, or NULL; the types are kept sorted as
   * the server sorts them, and a value's discriminator is its type's index.
   */
  VARIANT(-1),
  /** {@code Dynamic} or {@code Dynamic(max_types=N)}: a value of any type, with its type. */
  DYNAMIC(-1),
  /**
   * {@code JSON(...)}: an object of paths, with typed paths, {@code max_dynamic_paths}, {@code
   * max_dynamic_types} and {@code SKIP} paths and regular expressions.
   */
  JSON(-1);

  private final int fixedWidth;

  TypeKind(int fixedWidth) {
    this.fixedWidth = fixedWidth;
  }

  /** Returns the byte width of one value when it does not depend on parameters, else {@code -1}. */
  public int fixedWidth() {
    return fixedWidth;
  }
}
