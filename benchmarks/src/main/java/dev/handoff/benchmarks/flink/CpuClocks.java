package dev.handoff.benchmarks.flink;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time of this JVM (every thread: Flink, the source, the sinks, their clients) and of
 * the ClickHouse server process, read before and after each run.
 */
final class CpuClocks {
  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final Path serverStat;
  private final long nanosPerTick;

  CpuClocks(long serverPid) {
    this.serverStat = Path.of("/proc", Long.toString(serverPid), "stat");
    this.nanosPerTick = 1_000_000_000L / clockTicksPerSecond();
  }

  /** This process's CPU time so far, user and system, in nanoseconds. */
  long clientNanos() {
    return os.getProcessCpuTime();
  }

  /** The server's CPU time so far (utime + stime of /proc/pid/stat), in nanoseconds. */
  long serverNanos() {
    try {
      String stat = Files.readString(serverStat, StandardCharsets.US_ASCII);
      // The command name may hold spaces; the fields after it do not.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * nanosPerTick;
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + serverStat, e);
    }
  }

  /** The 1-minute load average, for the report. */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }

  private static long clockTicksPerSecond() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      try (InputStream in = p.getInputStream()) {
        String out = new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
        p.waitFor();
        return Long.parseLong(out);
      }
    } catch (IOException | NumberFormatException e) {
      return 100; // the value on every Linux this runs on
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
