package dev.handoff.clickhouse.testserver;

import static dev.handoff.clickhouse.testserver.ClickHouseServer.BINARY_PROPERTY;
import static dev.handoff.clickhouse.testserver.ClickHouseServer.LOOPBACK;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a server needs from this machine before it starts: the installed {@code clickhouse-server}
 * binary and two free ports on {@code 127.0.0.1}.
 */
final class LocalMachine {
  private static final String BINARY_NAME = "clickhouse-server";
  private static final List<String> FALLBACK_DIRECTORIES =
      List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin");

  private LocalMachine() {}

  /** The {@code clickhouse-server} to run: the system property, else PATH, else /usr/sbin etc. */
  static Path locateBinary() {
    return locateBinary(
        System.getProperty(BINARY_PROPERTY), System.getenv("PATH"), FALLBACK_DIRECTORIES);
  }

  static Path locateBinary(String configured, String pathVariable, List<String> fallbacks) {
    if (configured != null && !configured.isBlank()) {
      Path path = Path.of(configured);
      if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
        throw new ClickHouseServerException(
            "-D" + BINARY_PROPERTY + "=" + configured + " is not an executable file");
      }
      return path;
    }
    List<String> directories = new ArrayList<>();
    if (pathVariable != null) {
      directories.addAll(List.of(pathVariable.split(java.io.File.pathSeparator)));
    }
    directories.addAll(fallbacks);
    for (String dir : directories) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, BINARY_NAME);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new ClickHouseServerException(
        BINARY_NAME + " is not installed (looked on PATH and in " + fallbacks
            + "). The integration tests need a local ClickHouse server: install it with"
            + " `apt-get install clickhouse-server` (bash .ci/run does this on CI), or point -D"
            + BINARY_PROPERTY + " at the binary.");
  }

  /** Two distinct free ports on 127.0.0.1: bound to port 0 together, then released. */
  static int[] freePorts() {
    try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
        ServerSocket b = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return new int[] {a.getLocalPort(), b.getLocalPort()};
    } catch (IOException e) {
      throw new ClickHouseServerException("cannot find free ports on " + LOOPBACK, e);
    }
  }
}
