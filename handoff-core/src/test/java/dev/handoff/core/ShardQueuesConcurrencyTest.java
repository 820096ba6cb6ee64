package dev.handoff.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.handoff.api.AckSet;
import dev.handoff.api.EncodedChunk;
import dev.handoff.api.Frame;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/*
 * The queues under real threads: one pipeline thread that sends without blocking and parks what
 * does not fit (as the stage does), and sink workers that poll with a timeout. Every loop ends by
 * itself once its work is done, or when the test gives up (stop flag), so nothing outlives a
 * failing test.
 */
final class ShardQueuesConcurrencyTest {

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  @Test
  void producerWithParkingAndOneWorkerPerShard_deliverEveryChunkOnceInShardOrder() {
    int shards = 4;
    int perShard = 10_000;
    ShardQueues queues = new ShardQueues(shards, 2);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> error = new AtomicReference<>();
    // Written by the producer only, read after it ended.
    Set<EncodedChunk> sent = Collections.newSetFromMap(new IdentityHashMap<>());

    Thread producer = thread("producer", error, () -> {
      SplittableRandom random = new SplittableRandom(7);
      long[] next = new long[shards];
      List<ArrayDeque<EncodedChunk>> parked = new ArrayList<>();
      for (int s = 0; s < shards; s++) {
        parked.add(new ArrayDeque<>());
      }
      int made = 0;
      int parkedCount = 0;
      while (!stop.get() && (made < shards * perShard || parkedCount > 0)) {
        // Like the driver: pull more only while nothing is parked, so parking stays bounded.
        if (made < shards * perShard && parkedCount == 0) {
          int s = random.nextInt(shards);
          if (next[s] == perShard) {
            s = firstUnfinished(next, perShard);
          }
          EncodedChunk c = chunk(s, next[s]++);
          made++;
          sent.add(c);
          // Never overtake a parked chunk of the same shard.
          if (!parked.get(s).isEmpty() || !queues.trySend(c)) {
            parked.get(s).addLast(c);
            parkedCount++;
          }
        } else {
          Thread.onSpinWait();
        }
        for (ArrayDeque<EncodedChunk> p : parked) {
          while (!p.isEmpty() && queues.trySend(p.peekFirst())) {
            p.pollFirst();
            parkedCount--;
          }
        }
      }
    });

    List<List<EncodedChunk>> received = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    for (int s = 0; s < shards; s++) {
      List<EncodedChunk> mine = Collections.synchronizedList(new ArrayList<>());
      received.add(mine);
      int shard = s;
      workers.add(thread("worker-" + s, error, () -> {
        while (!stop.get() && mine.size() < perShard) {
          EncodedChunk c = queues.poll(shard, 10, TimeUnit.MILLISECONDS);
          if (c != null) {
            mine.add(c);
          }
        }
      }));
    }

    runAll(producer, workers, stop, error,
        () -> received.stream().allMatch(r -> r.size() >= perShard));

    IdentityHashMap<EncodedChunk, Boolean> seen = new IdentityHashMap<>();
    for (int s = 0; s < shards; s++) {
      List<EncodedChunk> mine = received.get(s);
      assertThat(mine).hasSize(perShard);
      for (int i = 0; i < perShard; i++) {
        EncodedChunk c = mine.get(i);
        assertThat(c.shard()).as("shard of a chunk polled from shard %s", s).isEqualTo(s);
        assertThat(c.sequence()).as("position %s of shard %s", i, s).isEqualTo(i);
        assertThat(seen.put(c, Boolean.TRUE)).as("received twice: %s", c).isNull();
      }
      assertThat(queues.size(s)).isZero();
    }
    assertThat(seen).hasSameSizeAs(sent);
    for (EncodedChunk c : sent) {
      assertThat(seen.containsKey(c)).as("never received: %s", c).isTrue();
    }
  }

  @Test
  void competingWorkersOnOneShard_receiveEveryChunkExactlyOnceEachInOrder() {
    int total = 40_000;
    int workersCount = 3;
    ShardQueues queues = new ShardQueues(1, 3);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> error = new AtomicReference<>();
    ConcurrentHashMap<Long, EncodedChunk> byWorkers = new ConcurrentHashMap<>();
    List<EncodedChunk> duplicates = Collections.synchronizedList(new ArrayList<>());

    Thread producer = thread("producer", error, () -> {
      long next = 0;
      EncodedChunk pending = null;
      while (!stop.get() && next < total) {
        if (pending == null) {
          pending = chunk(0, next);
        }
        if (queues.trySend(pending)) {
          pending = null;
          next++;
        } else {
          Thread.onSpinWait();
        }
      }
    });
    List<List<Long>> perWorker = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    for (int w = 0; w < workersCount; w++) {
      List<Long> mine = new ArrayList<>();
      perWorker.add(mine);
      workers.add(thread("worker-" + w, error, () -> {
        while (!stop.get() && byWorkers.size() < total) {
          EncodedChunk c = queues.poll(0, 10, TimeUnit.MILLISECONDS);
          if (c != null) {
            mine.add(c.sequence());
            if (byWorkers.putIfAbsent(c.sequence(), c) != null) {
              duplicates.add(c);
            }
          }
        }
      }));
    }

    runAll(producer, workers, stop, error, () -> byWorkers.size() >= total);

    assertThat(duplicates).isEmpty();
    assertThat(byWorkers).hasSize(total);
    for (List<Long> mine : perWorker) {
      // One queue, FIFO: whatever a single worker got, it got in send order.
      assertThat(mine).isSorted();
    }
    assertThat(perWorker.stream().mapToInt(List::size).sum()).isEqualTo(total);
  }

  private static int firstUnfinished(long[] next, int perShard) {
    for (int s = 0; s < next.length; s++) {
      if (next[s] < perShard) {
        return s;
      }
    }
    throw new IllegalStateException("all shards finished");
  }

  private interface Body {
    void run() throws Exception;
  }

  private static Thread thread(String name, AtomicReference<Throwable> error, Body body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        error.compareAndSet(null, e);
      }
    }, "queues-test-" + name);
    t.setDaemon(true);
    return t;
  }

  private static void runAll(Thread producer, List<Thread> workers, AtomicBoolean stop,
      AtomicReference<Throwable> error, Callable<Boolean> done) {
    workers.forEach(Thread::start);
    producer.start();
    try {
      await().atMost(DEADLINE).pollInterval(Duration.ofMillis(5))
          .until(() -> error.get() != null || done.call());
    } finally {
      stop.set(true);
      await().atMost(DEADLINE).until(() -> !producer.isAlive()
          && workers.stream().noneMatch(Thread::isAlive));
    }
    assertThat(error.get()).as("error in a test thread").isNull();
  }

  private static EncodedChunk chunk(int shard, long sequence) {
    return new EncodedChunk(shard, sequence, Frame.empty(), 0, new AckSet(), 0L, 0L);
  }
}
