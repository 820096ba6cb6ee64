package dev.handoff.encoders.testsupport;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * The ch-go encoder snapshots of the fixed-width types 18.16 lacks ({@code golden/ch-go/*.raw}
 * in each encoder module's test resources) and the values they were written from. For a
 * fixed-width type the Native column body is the RowBinary values back to back, so both
 * encoders reproduce them.
 */
public final class ChGoSnapshots {
  private ChGoSnapshots() {}

  /**
   * One snapshot: file {@code ch-go/<file>.raw} holds {@code rows} values of {@code type}, value
   * {@code i} being {@code value.apply(i)}.
   *
   * @param file the file name without {@code .raw}
   * @param type the column type
   * @param rows how many values the file holds
   * @param value the value of row {@code i}
   */
  public record Snapshot(String file, String type, int rows, IntFunction<Object> value) {}

  /** Returns every snapshot, in a fixed order. */
  public static List<Snapshot> all() {
    return List.of(
        new Snapshot("col_int128", "Int128", 50, i -> (long) i),
        new Snapshot("col_uint128", "UInt128", 50, i -> (long) i),
        new Snapshot("col_int256", "Int256", 50, i -> BigInteger.valueOf(i)),
        new Snapshot("col_uint256", "UInt256", 50, i -> BigInteger.valueOf(i)),
        new Snapshot("uint256_100", "UInt256", 1, i -> BigInteger.valueOf(100)),
        // The scale is not in the body: raw Int256 i is i * 10^-S for any S.
        new Snapshot("col_decimal256", "Decimal(76, 4)", 50, i -> BigDecimal.valueOf(i, 4)),
        new Snapshot("col_date32", "Date32", 50, i -> LocalDate.ofEpochDay(i)),
        // The precision is not in the body either: i ticks, here milliseconds.
        new Snapshot("col_datetime64", "DateTime64(3)", 50, i -> Instant.ofEpochMilli(i)),
        new Snapshot("col_bool", "Bool", 50, i -> i % 3 == 0),
        new Snapshot("col_ipv4", "IPv4", 50, i -> "0.0.0." + i),
        new Snapshot("col_ipv4_netaddr", "IPv4", 3,
            i -> inet(new byte[] {127, 0, 0, (byte) (i + 1)})),
        new Snapshot("col_ipv6", "IPv6", 50, i -> {
          byte[] b = new byte[16];
          b[7] = (byte) i; // first 8 bytes = i big-endian
          return inet(b);
        }),
        new Snapshot("col_ipv6_netaddr", "IPv6", 3,
            i -> "2001:db8:ac10:fe01:feed:babe:cafe:" + i),
        new Snapshot("col_uuid", "UUID", 50, i -> new UUID((long) i << 56, 0)));
  }

  private static InetAddress inet(byte[] address) {
    try {
      return InetAddress.getByAddress(address);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
