package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.AckSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The races a deterministic run cannot show: many short {@link StressRound}s of the real stage,
 * the real sink workers on real threads and the ack trackers, each with a seed that draws its
 * configuration and faults, checked at the end against the round's own books (the simulator's
 * oracles, as far as real threads allow).
 *
 * <p>By default 600 rounds from a random base seed (printed), a few tens of seconds.
 * {@code -Dhandoff.stressSeconds=N} runs rounds for N seconds instead (the long run in
 * docs/simulator.md); {@code -Dhandoff.stressSeed=S} starts at seed S, and with {@code
 * -Dhandoff.stressSame=true} runs that one seed's configuration every round, since the thread
 * timing, not the seed, decides whether a race shows.
 */
final class ThreadStressTest {
  private static final int ROUNDS = Integer.getInteger("handoff.stressRounds", 600);
  private static final long SECONDS = Long.getLong("handoff.stressSeconds", 0L);

  @Test
  void theStageTheWorkersAndTheAcksKeepEveryPromiseOnRealThreads() throws Exception {
    Long fixed = Long.getLong("handoff.stressSeed");
    boolean same = Boolean.getBoolean("handoff.stressSame");
    long base = fixed != null ? fixed : Rng.mix(System.nanoTime()) & 0xFFFF_FFFFFFL;
    System.out.println("ThreadStressTest: base seed " + base + (SECONDS > 0 ? ", " + SECONDS
        + " s" : ", " + ROUNDS + " rounds") + (same ? ", the same seed every round" : ""));
    long leaksBefore = AckSet.leaksDetected();
    StressRun run = StressRun.run(base, ROUNDS, SECONDS, same);
    System.out.println("ThreadStressTest: " + run.summary());
    List<String> failed = run.failed;
    long[] totals = run.totals;
    int rounds = run.rounds;
    assertThat(failed).as("failed rounds (base seed " + base + ")").isEmpty();
    System.gc();
    assertThat(AckSet.leaksDetected()).as("ack sets never resolved").isEqualTo(leaksBefore);
    if (rounds >= 100) {
      // The rounds went down every path, or they prove less than they seem to.
      assertThat(totals[0]).as("retries").isPositive();
      assertThat(totals[1]).as("dead-lettered rows").isPositive();
      assertThat(totals[2]).as("stuck writers").isPositive();
      assertThat(totals[3]).as("lost answers").isPositive();
      assertThat(totals[4]).as("pushes after close").isPositive();
      assertThat(totals[5]).as("closes racing the pushes").isPositive();
    }
  }
}
