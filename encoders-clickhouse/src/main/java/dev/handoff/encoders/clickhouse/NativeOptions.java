package dev.handoff.encoders.clickhouse;

/** The name (and, later, the option keys) of the {@code native} encoder provider. */
public final class NativeOptions {
  private NativeOptions() {}

  /** The provider name: {@code Providers.encoder(NativeOptions.NAME)}. */
  public static final String NAME = "native";
}
