package dev.handoff.clickhouse.testserver;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The servers of this JVM that are not closed yet, and the shutdown hook that stops every one of
 * them still running at JVM exit, so that servers never outlive the JVM.
 */
final class LiveServers {
  private static final Set<ClickHouseServer> LIVE = ConcurrentHashMap.newKeySet();
  private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();

  private LiveServers() {}

  /** Installs the shutdown hook, once per JVM. */
  static void installShutdownHook() {
    if (HOOK_INSTALLED.compareAndSet(false, true)) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(LiveServers::stopAllAtExit, "clickhouse-test-server-shutdown"));
    }
  }

  static void add(ClickHouseServer server) {
    LIVE.add(server);
  }

  static void remove(ClickHouseServer server) {
    LIVE.remove(server);
  }

  private static void stopAllAtExit() {
    List<ClickHouseServer> servers = new ArrayList<>(LIVE);
    for (ClickHouseServer server : servers) {
      ProcessHandle process = server.processHandle();
      if (process != null && process.isAlive()) {
        process.destroy(); // SIGTERM all of them at once, then wait for each
      }
    }
    for (ClickHouseServer server : servers) {
      try {
        server.terminate();
      } catch (RuntimeException e) {
        System.err.println("[ClickHouseServer] at JVM exit: " + e);
      }
    }
  }
}
