package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class ServerErrorTest {

  @Test
  void parse_readsTheSpellingOf18() {
    ServerError e = ServerError.parse("Code: 60, e.displayText() = DB::Exception: Table p.nope"
        + " doesn't exist., e.what() = DB::Exception\n").orElseThrow();

    assertThat(e.code()).isEqualTo(60);
    assertThat(e.name()).isEqualTo("UNKNOWN_TABLE");
    assertThat(e.message()).isEqualTo("Table p.nope doesn't exist.");
    assertThat(e).hasToString("Code: 60 (UNKNOWN_TABLE): Table p.nope doesn't exist.");
  }

  @Test
  void parse_keepsAMultiLineMessageOf18() {
    ServerError e = ServerError.parse("Code: 33, e.displayText() = DB::Exception: Cannot read all"
        + " data. Bytes read: 3. Bytes expected: 8.: (at row 1)\n, e.what() = DB::Exception\n")
        .orElseThrow();

    assertThat(e.code()).isEqualTo(33);
    assertThat(e.name()).isEqualTo("CANNOT_READ_ALL_DATA");
    assertThat(e.message())
        .isEqualTo("Cannot read all data. Bytes read: 3. Bytes expected: 8.: (at row 1)");
  }

  @Test
  void parse_readsTheNewerSpellingWithItsName() {
    ServerError e = ServerError.parse("Code: 516. DB::Exception: default: Authentication failed:"
        + " password is incorrect, or there is no user with such name. (AUTHENTICATION_FAILED)"
        + " (version 24.3.1.1 (official build))\n").orElseThrow();

    assertThat(e.code()).isEqualTo(516);
    assertThat(e.name()).isEqualTo("AUTHENTICATION_FAILED");
    assertThat(e.message()).isEqualTo("default: Authentication failed: password is incorrect,"
        + " or there is no user with such name.");
    assertThat(e.isTransient(401)).isFalse();
  }

  @Test
  void parse_takesANameFromTheTextForACodeTheTableLacks() {
    ServerError e = ServerError.parse("Code: 9999. DB::Exception: Something new. (NEW_THING)")
        .orElseThrow();

    assertThat(e.name()).isEqualTo("NEW_THING");
    assertThat(e.isTransient(500)).as("unknown code, 5xx").isTrue();
    assertThat(e.isTransient(400)).as("unknown code, 4xx").isFalse();
  }

  @Test
  void parse_isEmptyWithoutACode() {
    assertThat(ServerError.parse("<html>502 Bad Gateway</html>")).isEmpty();
    assertThat(ServerError.parse("")).isEmpty();
    assertThat(ServerError.parse(null)).isEmpty();
    assertThat(ServerError.parse("Code: 0. nothing")).isEmpty();
  }

  @Test
  void classification_retryableCodesAreTransientWhateverTheStatus() {
    int[] transientCodes = {159, 164, 202, 209, 210, 225, 241, 242, 252, 319, 999};
    for (int code : transientCodes) {
      ServerError e = new ServerError(code, null, "x");
      assertThat(e.isTransient(500)).as("code %d on 500", code).isTrue();
      assertThat(e.isTransient(400)).as("code %d on 400", code).isTrue();
    }
  }

  @Test
  void classification_dataQueryAndAuthCodesArePermanentEvenOn5xx() {
    int[] permanentCodes = {6, 16, 26, 27, 33, 38, 41, 43, 47, 53, 60, 62, 72, 81, 117, 192, 193,
        395, 516};
    for (int code : permanentCodes) {
      ServerError e = new ServerError(code, null, "x");
      assertThat(e.isTransient(500)).as("code %d on 500", code).isFalse();
    }
  }
}
