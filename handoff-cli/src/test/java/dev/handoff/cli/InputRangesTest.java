package dev.handoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.core.ack.SourceAcks;
import dev.handoff.core.ack.SourceBatch;
import org.junit.jupiter.api.Test;

final class InputRangesTest {

  private final SourceAcks acks = new SourceAcks("t");

  /** A batch whose {@code rows} rows went out in chunks of {@code chunkRows}. */
  private BatchAck batch(int rows, int chunkRows) {
    BatchAck a = new BatchAck(acks.begin());
    for (int i = 0; i < rows; i++) {
      if (i % chunkRows == 0) {
        a.retain();
      }
      a.accepted++;
    }
    return a;
  }

  /** Resolves the batch's chunks in order: {@code written[k]} says whether chunk k was. */
  private static void resolve(InputRanges r, BatchAck a, boolean... written) {
    for (boolean w : written) {
      if (!w) {
        a.fail(new IllegalStateException("chunk failed"));
      }
      a.release();
    }
    a.batch().complete();
    r.resolved(a.batchId(), a.batch().state() == SourceBatch.State.DELIVERED);
  }

  @Test
  void watermark_passesOnlyAContiguousDeliveredPrefix() {
    InputRanges r = new InputRanges(100, 5, 7, 1);
    BatchAck a = batch(10, 10);
    BatchAck b = batch(10, 10);
    BatchAck c = batch(10, 10);
    r.add(a, 200, 10, 10, 11, null);
    r.add(b, 300, 10, 10, 10, null);
    r.add(c, 400, 10, 10, 10, null);

    resolve(r, b, true);
    assertThat(r.watermark()).isEqualTo(100);
    assertThat(r.rowsWrittenPastWatermark()).isEqualTo(10);
    resolve(r, a, true);
    assertThat(r.watermark()).isEqualTo(300);
    assertThat(r.rowsBeforeWatermark()).isEqualTo(25);
    assertThat(r.linesBeforeWatermark()).isEqualTo(28);
    resolve(r, c, true);
    assertThat(r.watermark()).isEqualTo(400);
    assertThat(r.rowsBeforeWatermark()).isEqualTo(35);
    assertThat(r.waiting()).isFalse();
    assertThat(r.rowsWrittenPastWatermark()).isZero();
  }

  @Test
  void failedRange_replaysAsANewBatch_andItsDeliveryMovesTheWatermark() {
    InputRanges r = new InputRanges(0, 0, 0, 1);
    BatchAck a = batch(3, 10);
    BatchAck b = batch(3, 10);
    r.add(a, 10, 3, 3, 3, null);
    r.add(b, 20, 3, 3, 3, null);
    resolve(r, b, true);

    resolve(r, a, false);
    assertThat(r.waiting()).isTrue();
    InputRanges.Range again = r.pollReplay();
    assertThat(again.start).isZero();
    BatchAck replay = batch(3, 10);
    r.addReplay(replay, again);
    assertThat(r.watermark()).isZero();
    resolve(r, replay, true);

    assertThat(r.watermark()).isEqualTo(20);
    assertThat(r.batchesReplayed()).isEqualTo(1);
    assertThat(r.rowsReplayed()).isEqualTo(3);
    assertThat(r.rowsLost()).isZero();
    assertThat(r.duplicates()).isZero();
  }

  @Test
  void partlyWrittenBatch_countsItsWrittenRows_notAsLost_andItsReplayCountsDuplicates() {
    InputRanges r = new InputRanges(0, 0, 0, 1);
    BatchAck a = batch(10, 4); // chunks: rows 0-3, 4-7, 8-9
    r.add(a, 100, 10, 10, 10, null);
    resolve(r, a, true, false, true);

    assertThat(r.rowsLost()).isEqualTo(4);
    assertThat(r.rowsWrittenPastWatermark()).isEqualTo(6);
    assertThat(r.writtenUntil()).isEqualTo(100);

    InputRanges.Range again = r.pollReplay();
    BatchAck replay = batch(10, 3); // chunks: 0-2, 3-5, 6-8, 9
    r.addReplay(replay, again);
    resolve(r, replay, false, true, false, true);
    // written before: 0-3, 8-9; now 3-5 and 9: 3 and 9 again.
    assertThat(r.duplicates()).isEqualTo(2);
    assertThat(r.rowsLost()).isEqualTo(10 - 8);
    assertThat(r.rangesLost()).isEqualTo(1);
    assertThat(r.watermark()).isZero();
    assertThat(r.waiting()).isFalse();
  }

  @Test
  void rangeFailingMoreThanMaxReplays_isLost_andHoldsTheWatermark() {
    InputRanges r = new InputRanges(0, 0, 0, 1);
    BatchAck a = batch(4, 10);
    BatchAck b = batch(4, 10);
    r.add(a, 10, 4, 4, 4, null);
    r.add(b, 20, 4, 4, 4, null);
    resolve(r, a, false);
    BatchAck replay = batch(4, 10);
    r.addReplay(replay, r.pollReplay());
    resolve(r, replay, false);
    resolve(r, b, true);

    assertThat(r.pollReplay()).isNull();
    assertThat(r.waiting()).isFalse();
    assertThat(r.rangesLost()).isEqualTo(1);
    assertThat(r.rowsLost()).isEqualTo(4);
    assertThat(r.watermark()).isZero();
    assertThat(r.rowsWrittenPastWatermark()).as("the delivered batch after the lost one")
        .isEqualTo(4);
    assertThat(r.writtenUntil()).isEqualTo(20);
  }

  @Test
  void lostRow_holdsTheWatermarkAtItsLine() {
    InputRanges r = new InputRanges(0, 0, 0, 3);
    BatchAck a = batch(2, 10);
    r.add(a, 30, 2, 2, 2, null);
    r.addLost(45, 1, 1);
    resolve(r, a, true);

    assertThat(r.watermark()).isEqualTo(30);
    assertThat(r.rowsBeforeWatermark()).isEqualTo(2);
    assertThat(r.rowsLost()).isEqualTo(1);
    assertThat(r.waiting()).isFalse();
  }

  @Test
  void version_changesWithEveryResolution() {
    InputRanges r = new InputRanges(0, 0, 0, 0);
    BatchAck a = batch(1, 10);
    r.add(a, 10, 1, 1, 1, null);
    long v = r.version();
    resolve(r, a, true);
    assertThat(r.version()).isNotEqualTo(v);
  }
}
