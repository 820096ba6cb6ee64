package dev.handoff.clickhouse.testserver;

/**
 * Run in a child JVM by {@link ServerLifecycleTest}: starts a server, prints {@code <pid> <http
 * port> <directory>} and waits to be killed.
 */
public final class OrphanChild {
  private OrphanChild() {}

  public static void main(String[] args) throws InterruptedException {
    ClickHouseServer server = ClickHouseServer.start();
    System.out.println(server.pid() + " " + server.httpPort() + " " + server.directory());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
