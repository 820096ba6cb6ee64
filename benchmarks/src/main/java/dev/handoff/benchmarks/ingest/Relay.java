package dev.handoff.benchmarks.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay for {@link NetworkCompression}: listens on one address (the root end of a veth
 * pair) and forwards every connection to a port on loopback (the test server), counting the bytes
 * clients send. Two daemon threads per connection; closing the relay stops accepting.
 */
final class Relay implements AutoCloseable {
  private final ServerSocket listener;
  private final int target;
  private final AtomicLong bytesIn = new AtomicLong();

  Relay(String address, int targetPort) throws IOException {
    this.target = targetPort;
    this.listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
    Thread accept = new Thread(this::accept, "relay-accept");
    accept.setDaemon(true);
    accept.start();
  }

  /** Returns the port the relay listens on. */
  int port() {
    return listener.getLocalPort();
  }

  /** Returns the bytes clients have sent through the relay so far. */
  long bytesIn() {
    return bytesIn.get();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        pipe(client, server, true);
        pipe(server, client, false);
      } catch (IOException e) {
        if (!listener.isClosed()) {
          System.err.println("relay: " + e);
        }
      }
    }
  }

  private void pipe(Socket from, Socket to, boolean count) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[64 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          out.write(buffer, 0, n);
          if (count) {
            bytesIn.addAndGet(n);
          }
        }
      } catch (IOException e) {
        // a closed connection ends the pipe
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, "relay-pipe");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
