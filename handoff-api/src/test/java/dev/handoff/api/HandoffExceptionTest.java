package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;

final class HandoffExceptionTest {

  @Test
  void data_carriesDataClassAndMessage() {
    HandoffException e = HandoffException.data("column x: bad value");
    assertThat(e.errorClass()).isEqualTo(ErrorClass.DATA);
    assertThat(e).hasMessage("column x: bad value").hasNoCause();
  }

  @Test
  void transientError_carriesTransientClassAndCause() {
    Exception cause = new java.io.IOException("refused");
    HandoffException e = HandoffException.transientError("connect", cause);
    assertThat(e.errorClass()).isEqualTo(ErrorClass.TRANSIENT);
    assertThat(e).hasMessage("connect").hasCause(cause);
  }

  @Test
  void fatal_carriesFatalClassAndCause() {
    Exception cause = new IllegalStateException("broken");
    HandoffException e = HandoffException.fatal("encoder", cause);
    assertThat(e.errorClass()).isEqualTo(ErrorClass.FATAL);
    assertThat(e).hasMessage("encoder").hasCause(cause);
  }

  @Test
  void constructor_rejectsNullErrorClass() {
    assertThatNullPointerException()
        .isThrownBy(() -> new HandoffException(null, "m"))
        .withMessage("errorClass");
  }

  @Test
  void toString_namesTheErrorClass() {
    assertThat(HandoffException.data("bad").toString())
        .contains(HandoffException.class.getName())
        .contains("[DATA]")
        .contains("bad");
  }

  @Test
  void fatalError_toExceptionIsFatalAndNamesComponentAndReason() {
    Exception cause = new RuntimeException("boom");
    HandoffException e = new FatalError("sink", "queue closed", cause).toException();
    assertThat(e.errorClass()).isEqualTo(ErrorClass.FATAL);
    assertThat(e).hasMessage("sink: queue closed").hasCause(cause);
    assertThat(new FatalError("sink", "no cause", null).toException()).hasNoCause();
  }

  @Test
  void fatalError_rejectsNullComponentAndReason() {
    assertThatNullPointerException()
        .isThrownBy(() -> new FatalError(null, "r", null))
        .withMessage("component");
    assertThatNullPointerException()
        .isThrownBy(() -> new FatalError("c", null, null))
        .withMessage("reason");
  }
}
