package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.handoff.api.Ack;
import dev.handoff.api.ChunkBuffer;
import dev.handoff.api.ChunkConfig;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.ErrorPolicy;
import dev.handoff.api.Frame;
import dev.handoff.testkit.TestRow;
import dev.handoff.testkit.TestRowEncoder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The chunk pool, frames' lifetime, and a pooled stage's exact accounting. */
final class ChunkPoolTest {

  @Test
  void forBudget_keepsWhatTheBudgetHoldsPlusTwoPerShard_atMost1024() {
    ChunkPool pool = ChunkPool.forBudget(1 << 20, 8L << 20, 2);
    assertThat(pool.arrayLength()).isEqualTo(ChunkPool.arrayLengthFor(1 << 20));
    // 8 MiB holds 7 arrays of 1.125 MiB; each of the 2 shards adds an open one and one more.
    assertThat(keeps(pool, 15)).isEqualTo(7 + 2 * 2);
    assertThat(keeps(ChunkPool.forBudget(4096, 1L << 40, 1), 1030)).isEqualTo(1024);
    assertThat(keeps(ChunkPool.forBudget(4096, 0, 3), 10)).isEqualTo(6);
    assertThatThrownBy(() -> ChunkPool.forBudget(0, 1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ChunkPool.forBudget(1, -1, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ChunkPool.forBudget(1, 1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Takes {@code n} arrays, gives them all back, and returns how many the pool kept. */
  private static int keeps(ChunkPool pool, int n) {
    byte[][] out = new byte[n][];
    for (int i = 0; i < n; i++) {
      out[i] = pool.take();
    }
    for (byte[] a : out) {
      pool.give(a);
    }
    return pool.free();
  }

  @Test
  void takeReusesWhatWasGivenBackAndCountsLoans() {
    ChunkPool pool = new ChunkPool(16, 2);
    byte[] a = pool.take();
    byte[] b = pool.take();
    assertThat(pool.onLoan()).isEqualTo(2);
    assertThat(pool.bytesOnLoan()).isEqualTo(32);
    pool.give(a);
    assertThat(pool.take()).isSameAs(a);
    pool.give(a);
    pool.give(b);
    assertThat(pool.onLoan()).isZero();
    assertThat(pool.allocated()).isEqualTo(2);
    assertThat(pool.free()).isEqualTo(2);
  }

  @Test
  void keepsAtMostMaxFreeArrays() {
    ChunkPool pool = new ChunkPool(8, 1);
    byte[] a = pool.take();
    byte[] b = pool.take();
    pool.give(a);
    pool.give(b);
    assertThat(pool.free()).isOne();
  }

  @Test
  void aCheckedPoolRefusesDoubleAndForeignReturnsAndPoisons() {
    ChunkPool pool = ChunkPool.checked(8, 4);
    byte[] a = pool.take();
    a[0] = 42;
    pool.give(a);
    assertThat(a).containsOnly(ChunkPool.POISON);
    assertThatThrownBy(() -> pool.give(a)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not on loan");
    assertThatThrownBy(() -> pool.give(new byte[8])).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> pool.give(new byte[9])).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aCheckedPoolCountsTheGivesItRefused_forACallerThatOnlyLogsTheException() {
    ChunkPool pool = ChunkPool.checked(8, 4);
    byte[] a = pool.take();
    pool.give(a);
    assertThat(pool.refusedGives()).isZero();

    assertThatThrownBy(() -> pool.give(a)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> pool.give(new byte[8])).isInstanceOf(IllegalStateException.class);

    assertThat(pool.refusedGives()).isEqualTo(2);
    assertThat(pool.onLoan()).isZero();
    assertThat(new ChunkPool(8, 4).refusedGives()).isZero();
  }

  @Test
  void anUncheckedPoolStillRefusesMoreReturnsThanLoans() {
    ChunkPool pool = new ChunkPool(8, 4);
    byte[] a = pool.take();
    pool.give(a);
    assertThatThrownBy(() -> pool.give(a)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("more arrays given back");
  }

  @Test
  void aPooledFrameHoldsItsArrayUntilReleasedThenReadsThrow() {
    ChunkPool pool = ChunkPool.checked(16, 4);
    ChunkBuffer buffer = new ChunkBuffer(pool);
    buffer.writeLongLE(7);
    Frame f = buffer.split();
    assertThat(f.isPooled()).isTrue();
    assertThat(f.chargedBytes()).isEqualTo(16);
    assertThat(f.length()).isEqualTo(8);
    assertThat(pool.onLoan()).as("the frame's array and the buffer's next").isEqualTo(2);
    f.release();
    assertThat(pool.onLoan()).isOne();
    assertThatThrownBy(() -> f.byteAt(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("read after its release");
    assertThatThrownBy(f::toByteArray).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(f::release).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("released twice");
    buffer.release();
    assertThat(pool.onLoan()).isZero();
  }

  @Test
  void aRowLargerThanThePoolsArraysGrowsOutOfThePoolAndItsFrameIsNotPooled() {
    ChunkPool pool = ChunkPool.checked(16, 4);
    ChunkBuffer buffer = new ChunkBuffer(pool);
    buffer.writeBytes(new byte[40]);
    assertThat(pool.onLoan()).as("the outgrown pooled array came back at once").isZero();
    Frame f = buffer.split();
    assertThat(f.isPooled()).isFalse();
    assertThat(f.chargedBytes()).isEqualTo(40);
    assertThat(pool.onLoan()).as("the next chunk's array").isOne();
    f.release(); // gives nothing back, and does not throw
    assertThat(pool.onLoan()).isOne();
  }

  @Test
  void aPooledStageChargesWholeArraysAndTeardownGivesEveryArrayBack() {
    ChunkPool pool = ChunkPool.checked(ChunkPool.arrayLengthFor(64), 8);
    InflightBudget budget = new InflightBudget(1 << 20);
    ShardQueues queues = new ShardQueues(2, 1);
    SinkHandoff<TestRow> stage = SinkHandoff.builder(TestRowEncoder.rows(), queues)
        .config(new ChunkConfig(64, ErrorPolicy.FAIL, Duration.ofHours(1)))
        .router(Routers.roundRobin()).budget(budget).pool(pool).build();
    assertThat(pool.onLoan()).as("one open buffer per shard").isEqualTo(2);
    for (int i = 0; i < 40; i++) {
      stage.push(TestRow.of(i, 20), i, i % 2, Ack.NONE);
    }
    long sealed = queues.size(0) + queues.size(1) + stage.parkedChunks();
    assertThat(sealed).isPositive();
    assertThat(budget.inflightBytes()).as("each sealed chunk charges its whole array")
        .isEqualTo(sealed * pool.arrayLength());
    assertThat(pool.onLoan()).isEqualTo(sealed + 2);
    // A worker settles the queued chunks: bytes back to the budget, then the frame.
    for (int s = 0; s < 2; s++) {
      EncodedChunk c;
      while ((c = queues.poll(s)) != null) {
        budget.release(c.chargedBytes());
        c.frame().release();
      }
    }
    stage.close(); // fails what is parked and gives the open buffers' arrays back
    assertThat(budget.inflightBytes()).isZero();
    assertThat(pool.onLoan()).isZero();
  }

  @Test
  void aPoolOfTheWrongSizeIsRefused() {
    assertThatThrownBy(() -> SinkHandoff.builder(TestRowEncoder.rows(), new ShardQueues(1, 1))
        .config(new ChunkConfig(64, ErrorPolicy.FAIL, Duration.ofHours(1)))
        .pool(new ChunkPool(64, 1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ChunkPool.arrayLengthFor");
  }
}
