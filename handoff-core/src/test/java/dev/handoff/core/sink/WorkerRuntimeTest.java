package dev.handoff.core.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.EncodedChunk;
import dev.handoff.core.ShardQueues;
import dev.handoff.testkit.ManualClock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The workers run and wait only through the runtime they are given: every worker is started by
 * it, every chunk is taken through its poll, and shutdown joins and interrupts through its
 * handles. A simulator relies on exactly that to run them on virtual time.
 */
final class WorkerRuntimeTest {

  /** Delegates to the thread runtime and counts what the workers ask of it. */
  private static final class Counting implements WorkerRuntime {
    final WorkerRuntime threads = WorkerRuntime.threads(null);
    final Set<Integer> started = ConcurrentHashMap.newKeySet();
    final AtomicInteger taken = new AtomicInteger();
    final AtomicInteger joins = new AtomicInteger();

    @Override
    public Handle start(int shard, Loop worker) {
      started.add(shard);
      Handle h = threads.start(shard, worker);
      return new Handle() {
        @Override
        public boolean isAlive() {
          return h.isAlive();
        }

        @Override
        public void join(long nanos) throws InterruptedException {
          joins.incrementAndGet();
          h.join(nanos);
        }

        @Override
        public void interrupt() {
          h.interrupt();
        }
      };
    }

    @Override
    public EncodedChunk poll(ShardQueues queues, int shard, long timeoutNanos)
        throws InterruptedException {
      EncodedChunk c = threads.poll(queues, shard, timeoutNanos);
      if (c != null) {
        taken.incrementAndGet();
      }
      return c;
    }
  }

  @Test
  void theWorkersStartTakeAndJoinOnlyThroughTheRuntimeTheyAreGiven() {
    SinkFixture f = new SinkFixture(3, 8);
    ScriptedWriter writer = new ScriptedWriter(3);
    Counting runtime = new Counting();
    for (int s = 0; s < 3; s++) {
      f.send(s, SinkFixture.ids(10L * s, 2));
      f.send(s, SinkFixture.ids(10L * s + 2, 2));
    }
    SinkWorkers w = SinkWorkers.builder(f.queues, f.budget, writer).runtime(runtime)
        .threadFactory(r -> {
          throw new AssertionError("the runtime overrides the thread factory");
        })
        .clock(new ManualClock()).linger(Duration.ZERO).pollInterval(Duration.ofMillis(5))
        .build();
    w.start();

    WorkersReport report = w.shutdown(Duration.ofSeconds(10));

    assertThat(runtime.started).containsExactlyInAnyOrder(0, 1, 2);
    assertThat(runtime.taken).hasValue(6);
    assertThat(runtime.joins.get()).isPositive();
    assertThat(report.drained()).isTrue();
    assertThat(f.chunks).allSatisfy(c -> assertThat(f.delivered(c)).isTrue());
    assertThat(f.budget.inflightBytes()).isZero();
  }
}
