package dev.handoff.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@link StressRound}s: {@link ThreadStressTest} in the build, and {@link #main} for the
 * mutation script ({@code simulator/mutants/run-mutants.py --stress}), which puts a broken core
 * class first on the class path and reads the {@code RESULT} line.
 */
public final class StressRun {
  /** Seeds of the rounds that failed, each with its configuration, failures and replay hint. */
  final List<String> failed = new ArrayList<>();
  /**
   * What the passing rounds exercised: retries, dead-lettered rows, stuck writers, lost answers,
   * pushes after close, closes racing the pushes, rows written.
   */
  final long[] totals = new long[7];
  int rounds;

  private StressRun() {}

  /**
   * Runs rounds from seed {@code base} (the same seed every round when {@code same}) until
   * {@code rounds} ran, or for {@code seconds} when that is positive; stops after three failed
   * rounds.
   */
  static StressRun run(long base, int rounds, long seconds, boolean same)
      throws InterruptedException {
    StressRun run = new StressRun();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (seconds > 0 ? System.nanoTime() < end : run.rounds < rounds) {
      long seed = same ? base : base + run.rounds;
      run.rounds++;
      StressRound round = new StressRound(seed);
      round.run();
      if (!round.failures.isEmpty()) {
        run.failed.add("seed " + seed + " (" + round.config + "):\n  "
            + String.join("\n  ", round.failures.subList(0, Math.min(10,
                round.failures.size())))
            + "\n  writer: " + round.writer.counts()
            + "\n  reproduce (the configuration exactly, the thread timing by chance; repeat"
            + " it): mvn -B -pl simulator -am test -Dtest=ThreadStressTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dhandoff.stressSeed=" + seed
            + " -Dhandoff.stressSame=true -Dhandoff.stressRounds=200");
        System.out.println("ThreadStressTest: FAILED " + run.failed.get(run.failed.size() - 1));
        if (run.failed.size() >= 3) {
          break;
        }
        continue;
      }
      if (round.report != null) {
        run.totals[0] += round.report.retries();
        run.totals[1] += round.report.deadLetteredRows();
        run.totals[6] += round.report.rowsWritten();
      }
      run.totals[2] += round.writer.stuck;
      run.totals[3] += round.writer.timeouts;
      run.totals[4] += round.pushedAfterCloseCount;
      run.totals[5] += round.raced ? 1 : 0;
    }
    return run;
  }

  /** Returns a daemon thread that runs {@code body} and reports what it throws. */
  static Thread thread(String name, long seed, List<String> failures, Runnable body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (RuntimeException | Error e) {
        failures.add(Thread.currentThread().getName() + " threw " + e);
      }
    }, "stress-" + name + "-" + seed);
    t.setDaemon(true);
    return t;
  }

  /** Joins a thread; one still alive after {@code seconds} is reported as hung, with its stack. */
  static void join(Thread t, int seconds, List<String> failures) throws InterruptedException {
    t.join(TimeUnit.SECONDS.toMillis(seconds));
    if (t.isAlive()) {
      StringBuilder stack = new StringBuilder();
      for (StackTraceElement e : t.getStackTrace()) {
        stack.append("\n    at ").append(e);
      }
      failures.add(t.getName() + " did not end within " + seconds + " s (hung):" + stack);
    }
  }

  /** One line of what ran. */
  String summary() {
    return rounds + " rounds, " + failed.size() + " failed; retries " + totals[0]
        + ", dead-lettered rows " + totals[1] + ", stuck writers " + totals[2] + ", lost answers "
        + totals[3] + ", pushes after close " + totals[4] + ", raced closes " + totals[5]
        + ", rows written " + totals[6];
  }

  /**
   * Runs {@code args[0]} rounds from seed {@code args[1]} and prints {@code RESULT caught seed S:
   * first failure} or {@code RESULT survived N rounds}.
   *
   * @param args rounds, then the base seed
   * @throws InterruptedException if interrupted
   */
  public static void main(String[] args) throws InterruptedException {
    StressRun run = run(Long.parseLong(args[1]), Integer.parseInt(args[0]), 0, false);
    if (run.failed.isEmpty()) {
      System.out.println("RESULT survived " + run.summary());
    } else {
      String first = run.failed.get(0);
      String[] lines = first.split("\n");
      System.out.println("RESULT caught (" + run.failed.size() + " of " + run.rounds
          + " rounds failed), the first " + lines[0].replaceAll(" \\(.*", "") + ": "
          + (lines.length > 1 ? lines[1].trim() : ""));
    }
    System.exit(0);
  }
}
