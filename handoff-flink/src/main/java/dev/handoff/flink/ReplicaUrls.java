package dev.handoff.flink;

import java.io.Serializable;
import java.util.function.BiFunction;

/**
 * A serializable rule that makes a replica's HTTP URL from the host and native-protocol (TCP)
 * port that {@code system.clusters} names, for {@link HandoffSinkBuilder#setDistributedTable}.
 */
@FunctionalInterface
public interface ReplicaUrls extends BiFunction<String, Integer, String>, Serializable {

  /** Returns the rule {@code http://<host>:<httpPort>}: every replica serves HTTP on one port. */
  static ReplicaUrls httpPort(int httpPort) {
    if (httpPort < 1 || httpPort > 65_535) {
      throw new IllegalArgumentException("httpPort " + httpPort + " (expected: 1..65535)");
    }
    return (host, tcpPort) -> "http://" + host + ":" + httpPort;
  }
}
