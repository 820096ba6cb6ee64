package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.ref.WeakReference;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/*
 * Every test here resolves the sets it fills, except the ones about the leak detector, so that
 * the JVM-wide leak counter moves only when a test means it to.
 */
final class AckSetTest {

  @Test
  void add_retainsOncePerAdd() {
    CountingAck a = new CountingAck(1);
    CountingAck b = new CountingAck(2);
    AckSet set = new AckSet();

    set.add(a);
    set.add(b);
    set.add(a);

    assertThat(a.retains.get()).isEqualTo(2);
    assertThat(b.retains.get()).isEqualTo(1);
    assertThat(a.releases.get()).isZero();
    assertThat(set.size()).isEqualTo(3);
    assertThat(set.isEmpty()).isFalse();
    assertThat(set.batchIdAt(0)).isEqualTo(1);
    assertThat(set.batchIdAt(1)).isEqualTo(2);
    assertThat(set.batchIdAt(2)).isEqualTo(1);
    set.succeed();
  }

  @Test
  void add_growsBeyondTheInitialArray() {
    AckSet set = new AckSet();
    CountingAck[] acks = new CountingAck[50];
    for (int i = 0; i < acks.length; i++) {
      acks[i] = new CountingAck(i);
      set.add(acks[i]);
    }
    assertThat(set.size()).isEqualTo(50);
    for (int i = 0; i < acks.length; i++) {
      assertThat(set.batchIdAt(i)).isEqualTo(i);
    }
    set.succeed();
    for (CountingAck ack : acks) {
      assertThat(ack.releases.get()).isEqualTo(1);
    }
  }

  @Test
  void batchIdAt_rejectsIndexesOutsideTheSet() {
    AckSet set = new AckSet();
    set.add(new CountingAck(7));
    assertThatThrownBy(() -> set.batchIdAt(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> set.batchIdAt(1)).isInstanceOf(IndexOutOfBoundsException.class);
    set.succeed();
  }

  @Test
  void succeed_releasesEachEntryWithoutFailingIt() {
    CountingAck a = new CountingAck(1);
    CountingAck b = new CountingAck(2);
    AckSet set = new AckSet();
    set.add(a);
    set.add(b);
    set.add(a);

    set.succeed();

    assertThat(set.isResolved()).isTrue();
    assertThat(a.releases.get()).isEqualTo(2);
    assertThat(b.releases.get()).isEqualTo(1);
    assertThat(a.holders()).isZero();
    assertThat(b.holders()).isZero();
    assertThat(a.failure.get()).isNull();
    assertThat(b.failure.get()).isNull();
    assertThat(set.toString()).contains("delivered");
  }

  @Test
  void fail_marksEachEntryFailedWithTheCauseAndReleasesIt() {
    CountingAck a = new CountingAck(1);
    CountingAck b = new CountingAck(2);
    AckSet set = new AckSet();
    set.add(a);
    set.add(b);
    RuntimeException cause = new RuntimeException("write failed");

    set.fail(cause);

    assertThat(set.isResolved()).isTrue();
    assertThat(a.failure.get()).isSameAs(cause);
    assertThat(b.failure.get()).isSameAs(cause);
    assertThat(a.releases.get()).isEqualTo(1);
    assertThat(b.releases.get()).isEqualTo(1);
    assertThat(a.holders()).isZero();
    assertThat(set.toString()).contains("failed");
  }

  @Test
  void resolveTwice_throwsIllegalStateExceptionAndReleasesNothingMore() {
    CountingAck a = new CountingAck(1);
    AckSet succeeded = new AckSet();
    succeeded.add(a);
    succeeded.succeed();
    assertThatThrownBy(succeeded::succeed).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("delivered");
    assertThatThrownBy(() -> succeeded.fail(new RuntimeException()))
        .isInstanceOf(IllegalStateException.class);

    CountingAck b = new CountingAck(2);
    AckSet failed = new AckSet();
    failed.add(b);
    failed.fail(new RuntimeException());
    assertThatThrownBy(failed::succeed).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("failed");
    assertThatThrownBy(() -> failed.fail(new RuntimeException()))
        .isInstanceOf(IllegalStateException.class);

    assertThat(a.releases.get()).isEqualTo(1);
    assertThat(b.releases.get()).isEqualTo(1);
  }

  @Test
  void resolveTwice_onAnEmptySetThrowsToo() {
    AckSet set = new AckSet();
    set.succeed();
    assertThatThrownBy(set::succeed).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void add_afterResolveThrowsAndDoesNotRetain() {
    AckSet set = new AckSet();
    set.succeed();
    CountingAck late = new CountingAck(9);

    assertThatThrownBy(() -> set.add(late))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("9");
    assertThatThrownBy(() -> set.add(Ack.NONE)).isInstanceOf(IllegalStateException.class);
    assertThat(late.retains.get()).isZero();
    assertThat(set.size()).isZero();
  }

  @Test
  void add_ignoresAckNone() {
    AckSet set = new AckSet();
    set.add(Ack.NONE);
    set.add(Ack.NONE);
    assertThat(set.isEmpty()).isTrue();
    assertThat(set.size()).isZero();
    set.succeed();
    assertThat(set.isResolved()).isTrue();
  }

  @Test
  void newSet_isOpenAndEmpty() {
    AckSet set = new AckSet();
    assertThat(set.isResolved()).isFalse();
    assertThat(set.isEmpty()).isTrue();
    assertThat(set.toString()).contains("open");
    set.succeed();
  }

  @Test
  void toString_listsTheBatchIdsInOrder() {
    AckSet set = new AckSet();
    set.add(new CountingAck(4));
    set.add(new CountingAck(2));
    assertThat(set.toString()).contains("[4, 2]");
    set.succeed();
  }

  @Test
  void concurrentSucceedAndFail_exactlyOneWinsAndEachEntryIsReleasedOnce() throws Exception {
    for (int round = 0; round < 200; round++) {
      CountingAck ack = new CountingAck(round);
      AckSet set = new AckSet();
      set.add(ack);
      CountDownLatch start = new CountDownLatch(1);
      AtomicInteger losers = new AtomicInteger();
      Thread succeeder = new Thread(() -> race(start, set::succeed, losers));
      Thread failer = new Thread(() -> race(start, () -> set.fail(new RuntimeException()), losers));
      succeeder.start();
      failer.start();
      start.countDown();
      succeeder.join();
      failer.join();

      assertThat(losers.get()).as("round %d", round).isEqualTo(1);
      assertThat(ack.releases.get()).as("round %d", round).isEqualTo(1);
    }
  }

  @Test
  void leakDetector_failsAndReleasesAnUnresolvedUnreachableSet() throws InterruptedException {
    long before = AckSet.leaksDetected();
    CountingAck ack = new CountingAck(77);
    dropUnresolvedSetHolding(ack);

    awaitReleasedByLeakDetector(ack);

    assertThat(ack.releases.get()).isEqualTo(1);
    assertThat(ack.holders()).isZero();
    assertThat(ack.failure.get())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("never resolved");
    assertThat(AckSet.leaksDetected()).isGreaterThan(before);
  }

  @Test
  void leakDetector_doesNotCountAResolvedSet() throws InterruptedException {
    long before = AckSet.leaksDetected();
    CountingAck resolvedAck = new CountingAck(1);
    WeakReference<AckSet> resolved = dropResolvedSetHolding(resolvedAck);
    for (int i = 0; i < 50 && resolved.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(resolved.get()).as("the resolved set was collected").isNull();

    // A sentinel leak shows that the detector has run since the resolved set was collected.
    CountingAck sentinel = new CountingAck(2);
    dropUnresolvedSetHolding(sentinel);
    awaitReleasedByLeakDetector(sentinel);

    assertThat(AckSet.leaksDetected()).isEqualTo(before + 1);
    assertThat(resolvedAck.releases.get()).isEqualTo(1);
    assertThat(resolvedAck.failure.get()).isNull();
  }

  @Test
  void leakDetector_doesNotCountAnUnresolvedEmptySet() throws InterruptedException {
    long before = AckSet.leaksDetected();
    WeakReference<AckSet> empty = dropUnresolvedEmptySet();
    for (int i = 0; i < 50 && empty.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(empty.get()).as("the empty set was collected").isNull();

    CountingAck sentinel = new CountingAck(3);
    dropUnresolvedSetHolding(sentinel);
    awaitReleasedByLeakDetector(sentinel);

    assertThat(AckSet.leaksDetected()).isEqualTo(before + 1);
  }

  private static void race(CountDownLatch start, Runnable resolve, AtomicInteger losers) {
    try {
      start.await();
      resolve.run();
    } catch (IllegalStateException e) {
      losers.incrementAndGet();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /* Kept in their own methods so that no local variable of the test keeps the set reachable. */

  private static void dropUnresolvedSetHolding(Ack ack) {
    AckSet set = new AckSet();
    set.add(ack);
  }

  private static WeakReference<AckSet> dropResolvedSetHolding(Ack ack) {
    AckSet set = new AckSet();
    set.add(ack);
    set.succeed();
    return new WeakReference<>(set);
  }

  private static WeakReference<AckSet> dropUnresolvedEmptySet() {
    AckSet set = new AckSet();
    set.add(Ack.NONE);
    return new WeakReference<>(set);
  }

  private static void awaitReleasedByLeakDetector(CountingAck ack) throws InterruptedException {
    for (int i = 0; i < 50 && ack.releases.get() == 0; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertThat(ack.releases.get()).as("released by the leak detector after 50 GCs").isEqualTo(1);
  }

  /** A thread-safe ack that counts what happens to it. */
  private static final class CountingAck implements Ack {
    final long batchId;
    final AtomicInteger retains = new AtomicInteger();
    final AtomicInteger releases = new AtomicInteger();
    final AtomicReference<Throwable> failure = new AtomicReference<>();

    CountingAck(long batchId) {
      this.batchId = batchId;
    }

    int holders() {
      return retains.get() - releases.get();
    }

    @Override
    public long batchId() {
      return batchId;
    }

    @Override
    public void retain() {
      retains.incrementAndGet();
    }

    @Override
    public void release() {
      releases.incrementAndGet();
    }

    @Override
    public void fail(Throwable cause) {
      failure.compareAndSet(null, cause);
    }
  }
}
