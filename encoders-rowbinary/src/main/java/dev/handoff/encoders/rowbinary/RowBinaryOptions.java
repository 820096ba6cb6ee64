package dev.handoff.encoders.rowbinary;

/** The option keys and values of the {@code rowbinary} encoder provider. */
public final class RowBinaryOptions {
  private RowBinaryOptions() {}

  /** The provider name: {@code Providers.encoder(RowBinaryOptions.NAME)}. */
  public static final String NAME = "rowbinary";

  /** Option key: which header starts each frame. */
  public static final String HEADER = "header";

  /** {@link #HEADER} value: no header; the body of {@code FORMAT RowBinary}. The default. */
  public static final String HEADER_NONE = "none";

  /**
   * {@link #HEADER} value: each frame starts with the column count, names and types; the body of
   * {@code FORMAT RowBinaryWithNamesAndTypes} (ClickHouse 19 and later).
   */
  public static final String HEADER_NAMES_AND_TYPES = "names-and-types";

  /**
   * {@link #HEADER} value: as {@link #HEADER_NAMES_AND_TYPES}, with each type in ClickHouse's
   * binary type encoding instead of its name; the server must read it with {@code
   * input_format_binary_decode_types_in_binary_format = 1} (recent servers; tested with
   * ClickHouse 26.7).
   */
  public static final String HEADER_NAMES_AND_BINARY_TYPES = "names-and-binary-types";

  /**
   * Option key: the time zone (a {@code java.time.ZoneId}, say {@code Europe/Berlin}) that text
   * without an offset is read in for {@code DateTime} and {@code DateTime64} columns that name no
   * zone, as the server reads it in its own {@code timezone()}. Default {@code UTC}.
   */
  public static final String TIMEZONE = "timezone";
}
