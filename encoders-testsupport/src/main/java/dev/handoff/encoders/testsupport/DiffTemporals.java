package dev.handoff.encoders.testsupport;

import static dev.handoff.encoders.testsupport.DiffModel.pick;
import static dev.handoff.encoders.testsupport.DiffModel.pickLong;
import static dev.handoff.encoders.testsupport.DiffTypes.ZONES;

import dev.handoff.clickhouse.type.ClickHouseType;
import dev.handoff.encoders.testsupport.DiffModel.V;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded values of the date and time families for the differential properties: Date, Date32,
 * DateTime and DateTime64(P), edge values included, each in one of the input forms the
 * conversions accept (java.time types, java.util.Date, epoch numbers, ISO text, ...).
 */
public final class DiffTemporals {
  private DiffTemporals() {}

  /** Returns a random Date (or, with {@code date32}, Date32) value in one of its input forms. */
  public static V dateValue(SplittableRandom r, boolean date32) {
    long min = date32 ? LocalDate.of(1900, 1, 1).toEpochDay() : 0;
    long max = date32 ? LocalDate.of(2299, 12, 31).toEpochDay() : 65535;
    long day = r.nextInt(3) == 0 ? pickLong(r, min, max, 0L, min + 1, max - 1, 19_000L)
        : r.nextLong(min, max + 1);
    LocalDate d = LocalDate.ofEpochDay(day);
    // A date has no zone: an instant counts by its UTC date.
    Instant inDay = d.atStartOfDay(ZoneOffset.UTC).toInstant()
        .plusSeconds(r.nextInt(86_400)).plusNanos(r.nextInt(1_000_000_000));
    Object input = pick(r, d, d, day, (int) day, d.toString(),
        d.atTime(LocalTime.ofSecondOfDay(r.nextInt(86_400))), inDay,
        inDay.atOffset(offset(r)), inDay.atZone(zone(r)), inDay.toString(),
        new java.util.Date(inDay.toEpochMilli()));
    return V.of(input, d);
  }

  /** Returns a random zone offset: UTC or any whole minute within ±18 hours. */
  public static ZoneOffset offset(SplittableRandom r) {
    return r.nextBoolean() ? ZoneOffset.UTC
        : ZoneOffset.ofTotalSeconds(r.nextInt(-18 * 3600, 18 * 3600 + 1) / 60 * 60);
  }

  /** Returns one of {@link DiffTypes#ZONES}. */
  public static ZoneId zone(SplittableRandom r) {
    return ZoneId.of(ZONES.get(r.nextInt(ZONES.size())));
  }

  /** Returns a random value of DateTime type {@code t} in one of its input forms. */
  public static V dateTimeValue(SplittableRandom r, ClickHouseType t) {
    long s = r.nextInt(3) == 0
        ? pickLong(r, 0L, 1L, (long) Integer.MAX_VALUE, 1L << 31, 0xFFFF_FFFFL, 0xFFFF_FFFEL,
            1_700_000_000L)
        : r.nextLong(0, 1L << 32);
    Instant exact = Instant.ofEpochSecond(s);
    Instant withFraction = exact.plusNanos(r.nextInt(1_000_000_000)); // dropped (floor)
    List<Object> forms = new ArrayList<>(List.of(exact, withFraction, s, Long.toString(s),
        exact.toString(), withFraction.atOffset(offset(r)), withFraction.atZone(zone(r)),
        withFraction.atOffset(offset(r)).toString(),
        new java.util.Date(s * 1000 + r.nextInt(1000))));
    if (s <= Integer.MAX_VALUE) {
      forms.add((int) s);
    }
    addLocal(forms, withFraction, t.zone());
    return V.of(forms.get(r.nextInt(forms.size())), exact);
  }

  /** Adds the LocalDateTime of {@code at} in {@code zone}, and its text, when it is unambiguous. */
  private static void addLocal(List<Object> forms, Instant at, ZoneId zone) {
    LocalDateTime local = LocalDateTime.ofInstant(at, zone);
    if (zone.getRules().getValidOffsets(local).size() == 1) {
      forms.add(local);
      forms.add(local.toString());
    }
  }

  /** Returns a random value of DateTime64 type {@code t} in one of its input forms. */
  public static V dateTime64Value(SplittableRandom r, ClickHouseType t) {
    int p = t.precision();
    long unit = BigInteger.TEN.pow(p).longValueExact();
    long minSecond = LocalDate.of(1900, 1, 1).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
    long endSecond = LocalDate.of(2300, 1, 1).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
    long min = minSecond * unit;
    long max = p == 9 ? Long.MAX_VALUE : endSecond * unit - 1;
    long ticks = r.nextInt(3) == 0
        ? pickLong(r, min, max, 0L, -1L, 1L, unit, -unit, min + 1, max - 1)
        : r.nextLong(min, max);
    Instant exact = Instant.ofEpochSecond(Math.floorDiv(ticks, unit),
        Math.floorMod(ticks, unit) * (1_000_000_000L / unit));
    // Nanoseconds below one tick are dropped (floor).
    Instant withFraction = exact.plusNanos(r.nextLong(1_000_000_000L / unit));
    BigDecimal seconds = BigDecimal.valueOf(ticks, p);
    List<Object> forms = new ArrayList<>(List.of(ticks, ticks, exact, withFraction,
        withFraction.atOffset(offset(r)), withFraction.atZone(zone(r)), seconds,
        seconds.toPlainString(), withFraction.toString()));
    double d = seconds.doubleValue();
    if (BigDecimal.valueOf(d).compareTo(seconds) == 0) {
      forms.add(d);
    }
    if (p <= 3) {
      long millis = Math.multiplyExact(ticks, 1000 / unit) + r.nextLong(1000 / unit);
      forms.add(new java.util.Date(millis));
    }
    addLocal(forms, withFraction, t.zone());
    return V.of(forms.get(r.nextInt(forms.size())), exact);
  }
}
