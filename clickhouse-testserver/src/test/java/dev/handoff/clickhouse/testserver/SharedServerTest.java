package dev.handoff.clickhouse.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The per-JVM shared server: one instance, started lazily, not stoppable by its users. */
final class SharedServerTest {

  @Test
  void shared_isOneRunningInstance() {
    ClickHouseServer first = ClickHouseServer.shared();
    ClickHouseServer second = ClickHouseServer.shared();

    assertThat(second).isSameAs(first);
    assertThat(first.isRunning()).isTrue();
    assertThat(first.query("SELECT 1")).isEqualTo("1\n");
  }

  @Test
  void closingTheSharedServer_doesNothing_andStopOrResumeRefuse() {
    ClickHouseServer server = ClickHouseServer.shared();

    server.close();

    assertThat(server.isRunning()).isTrue();
    assertThat(ClickHouseServer.shared()).isSameAs(server);
    assertThatThrownBy(server::stop).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(server::resume).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aDeadSharedServer_isReplacedOnTheNextCall() throws InterruptedException {
    ClickHouseServer dead = ClickHouseServer.shared();
    ProcessHandle.of(dead.pid()).orElseThrow().destroyForcibly();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (dead.isRunning() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }

    ClickHouseServer fresh = ClickHouseServer.shared();

    assertThat(fresh).isNotSameAs(dead);
    assertThat(fresh.query("SELECT 1")).isEqualTo("1\n");
    assertThat(dead.directory()).doesNotExist();
    assertThat(ClickHouseServer.shared()).isSameAs(fresh);
  }
}
