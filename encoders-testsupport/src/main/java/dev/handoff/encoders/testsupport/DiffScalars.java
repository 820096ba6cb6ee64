package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffModel.pick;
import static dev.handoff.encoders.testsupport.DiffModel.pickInt;
import static dev.handoff.encoders.testsupport.DiffNumbers.decimalValue;
import static dev.handoff.encoders.testsupport.DiffNumbers.float32Value;
import static dev.handoff.encoders.testsupport.DiffNumbers.float64Value;
import static dev.handoff.encoders.testsupport.DiffNumbers.intInput;
import static dev.handoff.encoders.testsupport.DiffNumbers.intValue;
import static dev.handoff.encoders.testsupport.DiffTemporals.dateTime64Value;
import static dev.handoff.encoders.testsupport.DiffTemporals.dateTimeValue;
import static dev.handoff.encoders.testsupport.DiffTemporals.dateValue;
import static dev.handoff.encoders.testsupport.DiffValues.address;
import static dev.handoff.encoders.testsupport.DiffValues.compressed;
import static dev.handoff.encoders.testsupport.DiffValues.ip;
import static dev.handoff.encoders.testsupport.DiffValues.isMapped;
import static dev.handoff.encoders.testsupport.DiffValues.mapped;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.clickhouse.type.TypeKind;
import dev.handoff.encoders.testsupport.DiffModel.V;
import dev.handoff.encoders.testsupport.DiffTypes.Letter;
import dev.handoff.encoders.testsupport.DiffValues.Bytes;
import dev.handoff.encoders.testsupport.DiffValues.Ip;
import dev.handoff.testkit.Gen;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * Seeded scalar values for the differential properties: the dispatch over every scalar family
 * ({@link #scalarValue}; numbers come from {@link DiffNumbers}, dates and times from {@link
 * DiffTemporals}), and the text and identifier families: Bool, String, FixedString, UUID, IPv4,
 * IPv6 and Enum8/16.
 */
public final class DiffScalars {
  private DiffScalars() {}

  /* ------------------------------------------------------------------ Scalars */

  /**
   * Returns a value of scalar type {@code t} in one of its input forms; {@code top} as for
   * {@link DiffComposites#value}.
   */
  public static V scalarValue(SplittableRandom r, ClickHouseType t, boolean top) {
    switch (t.kind()) {
      case INT8: case INT16: case INT32: case INT64: case INT128: case INT256:
      case UINT8: case UINT16: case UINT32: case UINT64: case UINT128: case UINT256:
        return intInput(r, intValue(r, t.kind()));
      case FLOAT32:
        return float32Value(r);
      case FLOAT64:
        return float64Value(r);
      case BOOL: {
        boolean b = r.nextBoolean();
        return V.of(pick(r, b, b ? 1L : 0L, b ? 1 : 0, b ? "true" : "false",
            b ? "TRUE" : "False", b ? "1" : "0"), b);
      }
      case DECIMAL:
        return decimalValue(r, t);
      case STRING:
        return stringValue(r, top);
      case FIXED_STRING:
        return fixedStringValue(r, t.length(), top);
      case DATE:
      case DATE32:
        return dateValue(r, t.kind() == TypeKind.DATE32);
      case DATETIME:
        return dateTimeValue(r, t);
      case DATETIME64:
        return dateTime64Value(r, t);
      case UUID:
        return uuidValue(r);
      case IPV4:
        return ipv4Value(r);
      case IPV6:
        return ipv6Value(r);
      case ENUM8:
      case ENUM16: {
        int i = r.nextInt(t.enumSize());
        int v = t.enumValue(i);
        Object input = pick(r, t.enumName(i), t.enumName(i), (long) v, v);
        for (Letter l : Letter.values()) {
          if (l.name().equals(t.enumName(i)) && r.nextBoolean()) {
            input = l; // a Java enum constant meets an Enum column by name
          }
        }
        return V.of(input, v);
      }
      default:
        throw new IllegalArgumentException("not a scalar: " + t);
    }
  }

  /**
   * Returns a String value. Arbitrary bytes (invalid UTF-8 included) only at the top level: client-v2
   * decodes a nested String into {@code java.lang.String} whatever {@code binary_string_support}
   * says ({@code BinaryStreamReader.readNestedValue}), replacing invalid UTF-8, so there it could
   * not tell the bytes apart.
   */
  public static V stringValue(SplittableRandom r, boolean top) {
    int roll = r.nextInt(100);
    if (roll < 10 && top) {
      byte[] b = new byte[r.nextInt(20)];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) pickInt(r, 0, 0xFF, 0x80, 0xC3, 0xED, 0xF4, r.nextInt(256));
      }
      return V.of(b, new Bytes(b));
    }
    if (roll < 20) {
      // Not text: the encoder writes toString() (getHostAddress for an IP, ISO for temporals).
      Object o = pick(r, (Object) r.nextLong(), r.nextDouble(), Double.NaN,
          BigInteger.ONE.shiftLeft(100), new BigDecimal("-1.50"), new UUID(r.nextLong(), 7),
          Boolean.TRUE, Instant.ofEpochSecond(r.nextInt()), LocalDate.ofEpochDay(r.nextInt(70000)));
      return V.of(o, new Bytes(o.toString().getBytes(StandardCharsets.UTF_8)));
    }
    String s;
    if (roll < 30) {
      s = "";
    } else if (roll < 50) {
      // Around the one-byte varint length and the writer's short-text path (chars * 3 < 128).
      int n = pickInt(r, 42, 43, 127, 128, 129);
      String unit = pick(r, "a", "é", "日", "😀");
      s = unit.repeat(n).substring(0, n); // may split a surrogate pair: then '?' ends it
    } else if (roll < 52) {
      s = Gen.text(20_000).next(r); // a three-byte varint length, usually
    } else {
      s = Gen.text(r.nextBoolean() ? 8 : 60).next(r); // surrogate pairs and unpaired surrogates
    }
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8); // '?' for an unpaired surrogate
    Object input = pick(r, s, s, new StringBuilder(s), s.toCharArray(), utf8);
    if (s.length() == 1 && r.nextBoolean()) {
      input = s.charAt(0); // a Character
    }
    return V.of(input, new Bytes(utf8));
  }

  /** Returns a FixedString(n) value: text or bytes of at most n bytes, padded with zeros. */
  public static V fixedStringValue(SplittableRandom r, int n, boolean top) {
    byte[] content;
    Object input;
    int roll = r.nextInt(10);
    if (roll < 2 && top) {
      content = new byte[r.nextInt(n + 1)];
      for (int i = 0; i < content.length; i++) {
        content[i] = (byte) r.nextInt(256);
      }
      input = content;
    } else if (roll < 3) {
      content = new byte[0];
      input = pick(r, "", new byte[0]);
    } else {
      String s = Gen.text(n).next(r);
      while (s.getBytes(StandardCharsets.UTF_8).length > n) {
        s = s.substring(0, s.offsetByCodePoints(0, s.codePointCount(0, s.length()) - 1));
      }
      if (roll < 5) {
        s = "x".repeat(n); // exactly full
      }
      content = s.getBytes(StandardCharsets.UTF_8);
      input = pick(r, s, s, new StringBuilder(s), content);
    }
    return V.of(input, new Bytes(Arrays.copyOf(content, n)));
  }

  /** Returns a random UUID (edges included) as a UUID, its text or its 16 bytes. */
  public static V uuidValue(SplittableRandom r) {
    UUID u = r.nextInt(4) == 0
        ? pick(r, new UUID(0, 0), new UUID(-1, -1), new UUID(Long.MIN_VALUE, 0),
            new UUID(0, Long.MIN_VALUE), new UUID(0x0123456789ABCDEFL, 0xFEDCBA9876543210L))
        : new UUID(r.nextLong(), r.nextLong());
    ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits());
    return V.of(pick(r, u, u, u.toString(), u.toString().toUpperCase(Locale.ROOT), b.array()), u);
  }

  /** Returns a random IPv4 address as an InetAddress, its text or its number. */
  public static V ipv4Value(SplittableRandom r) {
    int v = r.nextInt(4) == 0 ? pickInt(r, 0, -1, 0x7F000001, 0xC0A80001, 0x80000000) : r.nextInt();
    byte[] a = ByteBuffer.allocate(4).putInt(v).array();
    Ip ip = ip(a);
    return V.of(pick(r, address(a), ip.text(), Integer.toUnsignedLong(v)), ip);
  }

  /**
   * Returns a random IPv6 address (::, ::1, IPv4-mapped, all ones, runs of zeros) as an
   * InetAddress, its bytes or its text, full or compressed.
   */
  public static V ipv6Value(SplittableRandom r) {
    byte[] a = new byte[16];
    switch (r.nextInt(6)) {
      case 0:
        break; // ::
      case 1:
        a[15] = 1; // ::1
        break;
      case 2:
        a = mapped(ByteBuffer.allocate(4).putInt(r.nextInt()).array()); // ::ffff:a.b.c.d
        break;
      case 3:
        Arrays.fill(a, (byte) 0xFF);
        break;
      default:
        for (int i = 0; i < 16; i++) {
          a[i] = (byte) r.nextInt(256);
        }
        if (r.nextBoolean()) {
          Arrays.fill(a, 2 + r.nextInt(6), 8 + r.nextInt(8), (byte) 0); // a run of zeros for ::
        }
    }
    List<Object> forms = new ArrayList<>(List.of(address(a), a.clone(), ip(a).text(),
        compressed(a)));
    if (isMapped(a)) {
      byte[] v4 = Arrays.copyOfRange(a, 12, 16);
      forms.add(address(v4)); // an Inet4Address becomes ::ffff:a.b.c.d
      forms.add("::ffff:" + ip(v4).text());
      forms.add(ip(v4).text());
    }
    return V.of(forms.get(r.nextInt(forms.size())), ip(a));
  }
}
