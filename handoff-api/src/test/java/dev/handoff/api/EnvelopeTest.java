package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;

final class EnvelopeTest {

  private static final RecordMeta META = new RecordMeta(1_000L, 42L);

  @Test
  void recordMeta_ofEventTimeUsesRoutingKeyZero() {
    RecordMeta meta = RecordMeta.ofEventTime(123L);
    assertThat(meta.eventTimeMs()).isEqualTo(123L);
    assertThat(meta.routingKey()).isZero();
    assertThat(meta).isEqualTo(new RecordMeta(123L, 0L));
  }

  @Test
  void record_rejectsNullPayloadMetaAndAckNamingTheParameter() {
    assertThatNullPointerException()
        .isThrownBy(() -> new Envelope<>(null, META, Ack.NONE))
        .withMessage("payload");
    assertThatNullPointerException()
        .isThrownBy(() -> new Envelope<>("row", null, Ack.NONE))
        .withMessage("meta");
    assertThatNullPointerException()
        .isThrownBy(() -> new Envelope<>("row", META, null))
        .withMessage("ack");
  }

  @Test
  void record_exposesItsPartsAndNamesThemInToString() {
    Envelope<String> record = new Envelope<>("row", META, Ack.NONE);
    assertThat(record.payload()).isEqualTo("row");
    assertThat(record.meta()).isSameAs(META);
    assertThat(record.ack()).isSameAs(Ack.NONE);
    assertThat(record.toString()).contains("batch=-1").contains("row");
  }

  @Test
  void ackNone_hasBatchIdMinusOneAndIgnoresEveryCall() {
    Ack.NONE.retain();
    Ack.NONE.fail(new RuntimeException());
    Ack.NONE.release();
    Ack.NONE.release();
    assertThat(Ack.NONE.batchId()).isEqualTo(-1L);
  }
}
