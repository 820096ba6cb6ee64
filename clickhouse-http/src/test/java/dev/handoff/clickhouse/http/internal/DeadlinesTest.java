package dev.handoff.clickhouse.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.HandoffClock;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link Deadlines}: what fires, what does not, and the thread's end when idle or closed. */
final class DeadlinesTest {

  private static Set<Thread> deadlineThreads() {
    Set<Thread> out = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("handoff-http-deadlines") && t.isAlive()) {
        out.add(t);
      }
    }
    return out;
  }

  @Test
  void aPassedDeadline_closesItsTarget_andADisarmedOneDoesNot() throws Exception {
    try (Deadlines d = new Deadlines(HandoffClock.system())) {
      CountDownLatch closed = new CountDownLatch(1);
      CountDownLatch never = new CountDownLatch(1);
      Deadlines.Deadline late = d.arm(never::countDown, System.nanoTime() + 200_000_000L);
      Deadlines.Deadline soon = d.arm(closed::countDown, System.nanoTime() + 50_000_000L);

      assertThat(d.disarm(late)).isFalse();
      assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(d.disarm(soon)).isTrue();
      assertThat(soon.fired()).isTrue();
      assertThat(never.await(400, TimeUnit.MILLISECONDS)).isFalse();
      assertThat(late.fired()).isFalse();
    }
  }

  @Test
  void theThread_endsWhenIdle_andAnArmStartsAnother() throws Exception {
    Set<Thread> others = deadlineThreads(); // other tests' clients, idle for at most a second
    Deadlines d = new Deadlines(HandoffClock.system());
    Deadlines.Deadline far = d.arm(() -> { }, System.nanoTime() + 60_000_000_000L);
    Set<Thread> ours = deadlineThreads();
    ours.removeAll(others);
    assertThat(ours).hasSize(1);
    Thread.sleep(200); // the thread now waits for the far deadline, which a disarm does not wake
    d.disarm(far);

    long until = System.nanoTime() + 10_000_000_000L;
    while (ours.iterator().next().isAlive() && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    assertThat(ours.iterator().next().isAlive()).as("ended a second after its last deadline")
        .isFalse();

    CountDownLatch closed = new CountDownLatch(1);
    d.arm(closed::countDown, System.nanoTime() + 10_000_000L);
    assertThat(closed.await(5, TimeUnit.SECONDS)).isTrue();
    d.close();
  }
}
