package dev.handoff.encoders.rowbinary;

import dev.handoff.encoders.testsupport.DiffModel.Case;
import dev.handoff.encoders.testsupport.DiffModel.Framing;
import dev.handoff.encoders.testsupport.DiffTypes;
import dev.handoff.encoders.testsupport.DiffTypes.CaseFormat;

/**
 * What {@link RowBinaryDifferentialProperties} adds to the shared case generator of {@code
 * encoders-testsupport} ({@link DiffTypes}): one case in four starts with the
 * RowBinaryWithNamesAndTypes header. Every type of the model is generated; client-v2's RowBinary
 * reader knows no limit beyond the shared ones.
 */
final class RowBinaryDifferentialCases {
  private RowBinaryDifferentialCases() {}

  /** Whether the frame starts with the RowBinaryWithNamesAndTypes header. */
  enum Header implements Framing {
    NONE(""),
    NAMES_AND_TYPES(" with the RowBinaryWithNamesAndTypes header");

    private final String text;

    Header(String text) {
      this.text = text;
    }

    @Override
    public String describe() {
      return text;
    }
  }

  /** The RowBinary rules: a header drawn one time in four. */
  static final CaseFormat FORMAT = r -> r.nextInt(4) == 0 ? Header.NAMES_AND_TYPES : Header.NONE;

  /** The case of {@code seed}. */
  static Case generate(long seed) {
    return DiffTypes.generate(seed, FORMAT);
  }

  /** Whether {@code c} starts with the header. */
  static boolean header(Case c) {
    return c.framing() == Header.NAMES_AND_TYPES;
  }

  /** Why client-v2 cannot judge {@code c} although the bytes are right, or {@code null}. */
  static String clientV2Limitation(Case c) {
    return DiffTypes.clientV2Limitation(c, FORMAT);
  }
}
