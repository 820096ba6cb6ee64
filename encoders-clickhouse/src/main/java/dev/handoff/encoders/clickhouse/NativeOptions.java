package dev.handoff.encoders.clickhouse;

/** The name and the option keys of the {@code native} encoder provider. */
public final class NativeOptions {
  private NativeOptions() {}

  /** The provider name: {@code Providers.encoder(NativeOptions.NAME)}. */
  public static final String NAME = "native";

  /**
   * Option key: the time zone (a {@code java.time.ZoneId}, say {@code Europe/Berlin}) that text
   * without an offset is read in for {@code DateTime} and {@code DateTime64} columns that name no
   * zone, as the server reads it in its own {@code timezone()}. Default {@code UTC}.
   */
  public static final String TIMEZONE = "timezone";
}
