package dev.handoff.benchmarks.stage;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback HTTP endpoint that accepts every request as ClickHouse accepts an insert: it reads
 * the body into one reused array, discards it and answers 200 with an empty body. It lets the
 * {@code ClickHouseSink} facade run its real sink workers and HTTP writer without a server.
 *
 * <p>Requests are handled on one thread of the server's own, whose allocations are counted
 * ({@link #allocatedBytes()}): JMH's {@code -prof gc} counts every thread of the JVM, this one
 * included, and a real deployment would not have it.
 */
final class NullInsertServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong bodyBytes = new AtomicLong();
  private volatile long handlerThreadId = -1;
  /** Only the handler thread reads into it, so one array serves every request. */
  private final byte[] scratch = new byte[1 << 16];

  /** Starts the server on a free loopback port. */
  NullInsertServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "null-insert-server");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  private void handle(HttpExchange exchange) throws IOException {
    handlerThreadId = Thread.currentThread().getId();
    long n = 0;
    try (InputStream in = exchange.getRequestBody()) {
      int r;
      while ((r = in.read(scratch)) > 0) {
        n += r;
      }
    }
    bodyBytes.addAndGet(n);
    requests.incrementAndGet();
    exchange.sendResponseHeaders(200, -1); // -1: no body, as an insert answers
    exchange.close();
  }

  /** Returns the base URL, {@code http://127.0.0.1:port}. */
  String url() {
    return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
  }

  /** Returns how many requests were answered. */
  long requests() {
    return requests.get();
  }

  /** Returns the body bytes read and discarded. */
  long bodyBytes() {
    return bodyBytes.get();
  }

  /**
   * Returns the bytes the handler thread has allocated so far (0 before the first request), for
   * subtracting the server's share from JMH's {@code gc.alloc.rate.norm}.
   */
  long allocatedBytes() {
    long id = handlerThreadId;
    if (id < 0) {
      return 0;
    }
    java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    if (mx instanceof com.sun.management.ThreadMXBean) {
      return ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(id);
    }
    return 0;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
