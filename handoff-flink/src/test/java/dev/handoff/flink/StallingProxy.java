package dev.handoff.flink;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback TCP proxy in front of a server that can stall: while stalled it accepts connections
 * and never answers them, and stops moving bytes on the connections it already has, as a hung
 * server would. Resuming closes the held connections and moves bytes again.
 */
final class StallingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final List<Socket> held = new CopyOnWriteArrayList<>();
  private volatile boolean stalled;

  StallingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::accept, "stalling-proxy");
    t.setDaemon(true);
    t.start();
  }

  String url() {
    return "http://127.0.0.1:" + listener.getLocalPort();
  }

  void stall() {
    stalled = true;
  }

  void resume() throws IOException {
    stalled = false;
    for (Socket s : held) {
      s.close();
    }
    held.clear();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        sockets.add(client);
        if (stalled) {
          held.add(client); // never read, never answered
          continue;
        }
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(server);
        pump(client, server);
        pump(server, client);
      } catch (IOException e) {
        // closed, or the server refused: the client sees its connection drop
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[64 << 10];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        while (true) {
          while (stalled) {
            LockSupport.parkNanos(10_000_000L);
          }
          int n = in.read(buf);
          if (n < 0) {
            break;
          }
          while (stalled) {
            LockSupport.parkNanos(10_000_000L);
          }
          out.write(buf, 0, n);
        }
      } catch (IOException e) {
        // one side closed
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, "stalling-proxy-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // nothing to do
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : sockets) {
      closeQuietly(s);
    }
  }
}
