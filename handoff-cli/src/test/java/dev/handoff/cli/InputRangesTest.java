package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class InputRangesTest {

  @Test
  void watermark_passesOnlyAContiguousDeliveredPrefix() {
    InputRanges r = new InputRanges(100, 5, 1);
    r.add(0, 200, 10, null);
    r.add(1, 300, 10, null);
    r.add(2, 400, 10, null);

    r.delivered(1);
    assertThat(r.watermark()).isEqualTo(100);
    r.delivered(0);
    assertThat(r.watermark()).isEqualTo(300);
    assertThat(r.rowsBeforeWatermark()).isEqualTo(25);
    r.delivered(2);
    assertThat(r.watermark()).isEqualTo(400);
    assertThat(r.rowsBeforeWatermark()).isEqualTo(35);
    assertThat(r.waiting()).isFalse();
  }

  @Test
  void failedRange_replaysAsANewBatch_andItsDeliveryMovesTheWatermark() {
    InputRanges r = new InputRanges(0, 0, 1);
    r.add(0, 10, 3, null);
    r.add(1, 20, 3, null);
    r.delivered(1);

    r.failed(0);
    assertThat(r.waiting()).isTrue();
    InputRanges.Range again = r.pollReplay();
    assertThat(again.start).isZero();
    r.addReplay(7, again);
    assertThat(r.watermark()).isZero();
    r.delivered(7);

    assertThat(r.watermark()).isEqualTo(20);
    assertThat(r.batchesReplayed()).isEqualTo(1);
    assertThat(r.rowsReplayed()).isEqualTo(3);
    assertThat(r.rowsLost()).isZero();
  }

  @Test
  void rangeFailingMoreThanMaxReplays_isLost_andHoldsTheWatermark() {
    InputRanges r = new InputRanges(0, 0, 1);
    r.add(0, 10, 4, null);
    r.add(1, 20, 4, null);
    r.failed(0);
    r.addReplay(2, r.pollReplay());
    r.failed(2);
    r.delivered(1);

    assertThat(r.pollReplay()).isNull();
    assertThat(r.waiting()).isFalse();
    assertThat(r.rangesLost()).isEqualTo(1);
    assertThat(r.rowsLost()).isEqualTo(4);
    assertThat(r.watermark()).isZero();
  }

  @Test
  void version_changesWithEveryResolution() {
    InputRanges r = new InputRanges(0, 0, 0);
    r.add(0, 10, 1, null);
    long v = r.version();
    r.delivered(0);
    assertThat(r.version()).isNotEqualTo(v);
  }
}
