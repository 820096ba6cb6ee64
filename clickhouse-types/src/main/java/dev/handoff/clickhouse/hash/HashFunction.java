package dev.handoff.clickhouse.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The ClickHouse SQL hash functions that {@code Distributed} tables shard by, computed as
 * ClickHouse 18.16 computes them for each argument type.
 *
 * <p>A function of several arguments hashes each argument and folds the hashes left to right
 * with {@link #combine}: {@code f(a, b, c) = combine(combine(h(a), h(b)), h(c))}. How an argument
 * is hashed depends on its type:
 *
 * <ul>
 *   <li>{@code String} and {@code FixedString(N)}: the bytes ({@link #hashBytes}); a FixedString
 *       hashes all N bytes, its zero padding included.
 *   <li>Integers, {@code Enum8/16}, {@code Date} (days, 2 bytes) and {@code DateTime} (seconds, 4
 *       bytes): {@link #hashInteger} of the value and the type's width. {@code cityHash64} applies
 *       {@code intHash64} to the value's bytes zero-extended to 64 bits (even for signed types:
 *       {@code cityHash64(toInt8(-1)) = cityHash64(toUInt8(255))}), {@code intHash64} to the
 *       value sign-extended; the others hash the value's little-endian bytes, as many as the type
 *       has.
 *   <li>{@code Float32/64}: {@link #hashFloat32}, {@link #hashFloat64}, by the IEEE 754 bits.
 *   <li>{@code Array(T)}: {@link #hashArrayLength} of the length is combined into the running
 *       hash like an argument, then each element's hash is combined into it in order; so an
 *       array after other arguments is not hashed on its own first.
 *   <li>{@code Tuple(...)}: flattened, each element counts as an argument of its own.
 *   <li>{@code Nullable(T)}: as T; a NULL makes the result NULL, which cannot shard a row.
 * </ul>
 *
 * <p>18.16 refuses {@code UUID}, {@code Decimal} and {@code LowCardinality} arguments to these
 * functions, {@code intHash64} takes exactly one integer ({@code Date} and {@code DateTime} too),
 * and 18.16 has no {@code xxHash64}: later servers added it, and {@link #XX_HASH_64} follows
 * them (bytes of integers, arguments combined by {@code Hash128to64}; checked against 26.7).
 *
 * <p>Every method allocates nothing and is safe to call from any thread.
 */
public enum HashFunction {
  /** {@code cityHash64}: CityHash64 v1.0.2; integers through {@code intHash64}; combined by
   * CityHash's {@code Hash128to64}. */
  CITY_HASH_64("cityHash64"),
  /** {@code sipHash64}: SipHash-2-4 with the zero key; combined by hashing the 16 bytes of the two
   * hashes. */
  SIP_HASH_64("sipHash64"),
  /** {@code murmurHash3_64}: MurmurHash3_x64_128 with seed 0, its halves XORed; combined as
   * {@code intHash64(previous) ^ next}. */
  MURMUR_HASH3_64("murmurHash3_64"),
  /** {@code xxHash64}: xxHash64 with seed 0; combined by CityHash's {@code Hash128to64}. Not in
   * 18.16; as ClickHouse 26.7 computes it. */
  XX_HASH_64("xxHash64"),
  /** {@code intHash64}: the 64-bit integer mix of exactly one integer argument. */
  INT_HASH_64("intHash64");

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[16]);

  private final String sqlName;

  HashFunction(String sqlName) {
    this.sqlName = sqlName;
  }

  /** Returns the function's name in ClickHouse SQL, such as {@code cityHash64}. */
  public String sqlName() {
    return sqlName;
  }

  /**
   * Returns the function named {@code name} in ClickHouse SQL (case-sensitive, as the server).
   *
   * @throws IllegalArgumentException if {@code name} is none of these functions
   */
  public static HashFunction forSqlName(String name) {
    for (HashFunction function : values()) {
      if (function.sqlName.equals(name)) {
        return function;
      }
    }
    throw new IllegalArgumentException("unknown hash function '" + name + "': expected one of"
        + " cityHash64, sipHash64, murmurHash3_64, xxHash64, intHash64");
  }

  /**
   * Returns the hash of a {@code String} or {@code FixedString} argument with these bytes.
   *
   * @throws UnsupportedOperationException for {@link #INT_HASH_64}, which takes no strings
   * @throws IndexOutOfBoundsException if the range is not within {@code bytes}
   */
  public long hashBytes(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    return switch (this) {
      case CITY_HASH_64 -> CityHash.hash64(bytes, offset, length);
      case SIP_HASH_64 -> SipHash.hash64(bytes, offset, length);
      case MURMUR_HASH3_64 -> MurmurHash3.hash64(bytes, offset, length);
      case XX_HASH_64 -> XxHash64.hash64(bytes, offset, length);
      case INT_HASH_64 -> throw new UnsupportedOperationException(
          "intHash64 takes one integer argument, not a String");
    };
  }

  /** Returns the hash of a {@code String} argument with all of these bytes. */
  public long hashBytes(byte[] bytes) {
    return hashBytes(bytes, 0, bytes.length);
  }

  /**
   * Returns the hash of an integer argument of a type {@code width} bytes wide: 1 for
   * (U)Int8 and Enum8, 2 for (U)Int16, Enum16 and Date, 4 for (U)Int32 and DateTime, 8 for
   * (U)Int64. {@code value} holds the value as a Java long: sign-extended for signed types,
   * zero-extended for unsigned ones (a UInt64 by its 64 bits).
   *
   * @throws IllegalArgumentException if {@code width} is not 1, 2, 4 or 8
   */
  public long hashInteger(long value, int width) {
    if (width != 1 && width != 2 && width != 4 && width != 8) {
      throw new IllegalArgumentException("integer width must be 1, 2, 4 or 8 bytes: " + width);
    }
    return switch (this) {
      // cityHash64 copies the value's bytes into a zeroed 64-bit word: zero extension, so
      // cityHash64(toInt8(-1)) = intHash64(255); intHash64 itself converts, sign-extending.
      case CITY_HASH_64 -> intHash64(width == 8 ? value : value & ((1L << (8 * width)) - 1));
      case INT_HASH_64 -> intHash64(value);
      default -> hashWords(value, 0, width);
    };
  }

  /** Returns the hash of a {@code Float32} argument. */
  public long hashFloat32(float value) {
    int bits = Float.floatToRawIntBits(value);
    return this == CITY_HASH_64 || this == INT_HASH_64
        ? intHash64(bits & 0xffffffffL) : hashWords(bits, 0, 4);
  }

  /** Returns the hash of a {@code Float64} argument. */
  public long hashFloat64(double value) {
    long bits = Double.doubleToRawLongBits(value);
    return this == CITY_HASH_64 || this == INT_HASH_64 ? intHash64(bits) : hashWords(bits, 0, 8);
  }

  /**
   * Returns the hash an {@code Array} argument starts from, before each element's hash is
   * combined into it: {@code intHash64} of the length, for every function.
   */
  public long hashArrayLength(int length) {
    return intHash64(length);
  }

  /** Returns the hash of two arguments' hashes: {@code previous} so far, then {@code next}. */
  public long combine(long previous, long next) {
    return switch (this) {
      case CITY_HASH_64, XX_HASH_64, INT_HASH_64 -> CityHash.hash128to64(previous, next);
      case SIP_HASH_64 -> hashWords(previous, next, 16);
      case MURMUR_HASH3_64 -> intHash64(previous) ^ next;
    };
  }

  /** Returns ClickHouse's {@code intHash64} of a 64-bit value. */
  public static long intHash64(long value) {
    long x = value ^ 0x4CF2D2BAAE6DA887L;
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    x *= 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    return x;
  }

  private long hashWords(long low, long high, int length) {
    byte[] scratch = SCRATCH.get();
    LONGS.set(scratch, 0, low);
    LONGS.set(scratch, 8, high);
    return hashBytes(scratch, 0, length);
  }
}
