package dev.handoff.clickhouse.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class ClickHouseServerExceptionTest {

  @Test
  void httpError_keepsStatusAndBody_andParsesTheCode() {
    ClickHouseServerException e =
        new ClickHouseServerException(
            404, "Code: 60, e.displayText() = DB::Exception: Table x.y doesn't exist.\n",
            "SELECT *\n  FROM x.y");

    assertThat(e.httpStatus()).isEqualTo(404);
    assertThat(e.errorCode()).isEqualTo(60);
    assertThat(e.serverMessage()).endsWith("exist.\n");
    assertThat(e.getMessage())
        .isEqualTo(
            "HTTP 404 from ClickHouse for [SELECT * FROM x.y]: Code: 60, e.displayText() ="
                + " DB::Exception: Table x.y doesn't exist.");
  }

  @Test
  void longSql_isAbbreviatedInTheMessage() {
    String sql = "SELECT " + "1, ".repeat(500) + "1";

    String message = new ClickHouseServerException(400, "Code: 62", sql).getMessage();

    assertThat(message).contains("...]: Code: 62").hasSizeLessThan(400);
  }

  @Test
  void harnessFailure_hasNoStatusNoBodyNoCode() {
    ClickHouseServerException e = new ClickHouseServerException("it broke");

    assertThat(e.httpStatus()).isEqualTo(-1);
    assertThat(e.serverMessage()).isEmpty();
    assertThat(e.errorCode()).isEqualTo(-1);
  }

  @Test
  void bodyWithoutACode_givesMinusOne() {
    assertThat(new ClickHouseServerException(502, "Bad Gateway", "SELECT 1").errorCode())
        .isEqualTo(-1);
  }
}
