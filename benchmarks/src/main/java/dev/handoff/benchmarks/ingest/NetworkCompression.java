package dev.handoff.benchmarks.ingest;

import dev.handoff.api.ColumnSpec;
import dev.handoff.api.FlowControl;
import dev.handoff.benchmarks.encode.Workload;
import dev.handoff.clickhouse.http.ClickHouseHttpOptions.Compression;
import dev.handoff.clickhouse.sink.ClickHouseSink;
import dev.handoff.clickhouse.sink.DeliveryReport;
import dev.handoff.clickhouse.sink.InsertFormat;
import dev.handoff.clickhouse.testserver.ClickHouseServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * End-to-end rows per second of the narrow schema through the sink facade over a 100 Mbit/s link,
 * for each compression: none, gzip, LZ4 and ZSTD (issue 18).
 *
 * <p>The link is made here, with root's tools: a network namespace, a veth pair between it and the
 * root namespace, and {@code tc qdisc ... tbf rate 100mbit} on the namespace's end, which is the
 * client's side (inserts flow from the client). The 18.16 server runs in the root namespace on
 * loopback (the test harness's server); a relay in this process listens on the root end of the
 * veth pair and forwards to it, counting the bytes the client sends. The client is a second JVM,
 * started with {@code ip netns exec} inside the namespace, that pushes the rows through {@link
 * ClickHouseSink} (its defaults, Native) and reports the time from the first push to the close;
 * this process checks the table (count and column sums) after every run.
 *
 * <p>{@code --workload narrow} (the default) is the encode benchmarks' narrow schema, whose random
 * ids, doubles and strings compress little; {@code narrow-lc} draws {@code s12} from 200 values
 * into a {@code LowCardinality(String)} column; {@code events} keeps the schema and gives the
 * values the repetition an event stream has (see {@code rows}).
 *
 * <p>Not in any test run: it needs root, {@code ip} and {@code tc} (iproute2), and takes about a
 * minute. Without them it says so and exits with status 2; the numbers then come from a manual
 * run of the same steps (docs/benchmarks.md).
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * sudo java -cp benchmarks/target/benchmarks.jar dev.handoff.benchmarks.ingest.NetworkCompression \
 *     [--rows 1000000] [--repeats 3] [--rate 100mbit] [--workload narrow|narrow-lc|events]
 * </pre>
 */
public final class NetworkCompression {
  private static final String TABLE = "narrow";
  private static final List<Compression> ORDER = List.of(Compression.NONE, Compression.GZIP,
      Compression.LZ4, Compression.ZSTD);

  private NetworkCompression() {}

  /** Runs the measurement (or, with {@code --client}, one client run inside the namespace). */
  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--client")) {
      client(args);
      return;
    }
    int rows = 1_000_000;
    int repeats = 3;
    String rate = "100mbit";
    String workload = "narrow";
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--rows" -> rows = Integer.parseInt(args[i + 1]);
        case "--repeats" -> repeats = Integer.parseInt(args[i + 1]);
        case "--rate" -> rate = args[i + 1];
        case "--workload" -> workload = args[i + 1];
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    long pid = ProcessHandle.current().pid();
    Link link = new Link("hoc" + pid, "hoa" + pid, "hob" + pid, (int) (pid % 250) + 1);
    try {
      link.create(rate);
    } catch (IOException e) {
      System.err.println("network namespaces or tc are not available here, so this measurement"
          + " cannot run: " + e.getMessage() + "\nIt needs root and iproute2 (ip, tc); see"
          + " docs/benchmarks.md for the manual run.");
      link.delete();
      System.exit(2);
    }
    try (ClickHouseServer server = ClickHouseServer.start();
        Relay relay = new Relay(link.rootAddress(), server.httpPort())) {
      String db = server.uniqueDatabase("net");
      String url = "http://" + link.rootAddress() + ":" + relay.port();
      System.out.printf(Locale.ROOT, "server %s behind %s, link %s (tbf on %s in %s), %,d %s"
          + " rows, %d cores, JDK %s%n", server.query("SELECT version()").strip(), url, rate,
          link.inner, link.namespace, rows, workload, Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.version"));
      Map<Compression, List<double[]>> runs = new LinkedHashMap<>();
      String expected = null;
      for (int r = -1; r < repeats; r++) {
        for (Compression c : ORDER) {
          server.execute("DROP TABLE IF EXISTS " + db + "." + TABLE);
          server.execute("CREATE TABLE " + db + "." + TABLE + " (" + ddl(workload)
              + ") ENGINE = MergeTree ORDER BY ts");
          long before = relay.bytesIn();
          double perSecond = runClient(link, url, db, c, rows, workload);
          long wire = relay.bytesIn() - before;
          String sums = server.query("SELECT count(), sum(toUInt32(ts)), sum(id % 1000003),"
              + " round(sum(value)), sum(flag), sum(length(s12)), sum(length(s40)) FROM " + db
              + "." + TABLE).strip();
          if (!sums.startsWith(rows + "\t") || (expected != null && !expected.equals(sums))) {
            throw new IllegalStateException(c + ": the table holds " + sums + ", expected "
                + (expected != null ? expected : rows + " rows"));
          }
          expected = sums;
          System.out.printf(Locale.ROOT, "%-5s %s %,10.0f rows/s  %,13d bytes sent (%.1f"
              + " bytes/row)%n", c, r < 0 ? "warm-up" : "run " + (r + 1), perSecond, wire,
              (double) wire / rows);
          if (r >= 0) {
            runs.computeIfAbsent(c, k -> new ArrayList<>()).add(new double[] {perSecond, wire});
          }
        }
      }
      double noneRate = median(runs.get(Compression.NONE), 0);
      double noneBytes = median(runs.get(Compression.NONE), 1);
      System.out.println();
      System.out.println("| compression | rows/s (median of " + repeats + ") | runs | vs none |"
          + " bytes sent | fewer bytes than none |");
      System.out.println("| --- | ---: | --- | ---: | ---: | ---: |");
      for (Map.Entry<Compression, List<double[]>> e : runs.entrySet()) {
        StringJoiner each = new StringJoiner(", ");
        for (double[] v : e.getValue()) {
          each.add(String.format(Locale.ROOT, "%.0fk", v[0] / 1e3));
        }
        double m = median(e.getValue(), 0);
        double b = median(e.getValue(), 1);
        System.out.printf(Locale.ROOT, "| %s | %,.0f | %s | %.2fx | %,.0f | %.2fx |%n",
            e.getKey(), m, each, m / noneRate, b, noneBytes / b);
      }
    } finally {
      link.delete();
    }
  }

  private static String ddl(String workload) {
    StringJoiner j = new StringJoiner(", ");
    for (ColumnSpec c : workload(workload, 1).columns()) {
      j.add(c.name() + " " + c.type());
    }
    return j.toString();
  }

  private static Workload workload(String name, int rows) {
    return switch (name) {
      case "narrow", "events" -> Workload.narrow(rows, 42);
      case "narrow-lc" -> Workload.narrowLowCardinality(rows, 42, false);
      default -> throw new IllegalArgumentException("--workload " + name
          + ": expected narrow, narrow-lc or events");
    };
  }

  /**
   * The rows of {@code name}: the workload's, or for {@code events} the narrow rows with the
   * repetition an event stream has: ids counting up, prices in cents below 100.00, {@code s12}
   * one of 200 names and {@code s40} one of 1,000 texts (the narrow generator's own values).
   */
  private static Object[][] rows(String name, int count) {
    Object[][] rows = workload(name, count).rows();
    if (name.equals("events")) {
      SplittableRandom r = new SplittableRandom(7);
      int names = Math.min(200, rows.length);
      int texts = Math.min(1000, rows.length);
      Object[] s12 = new Object[names];
      Object[] s40 = new Object[texts];
      for (int i = 0; i < texts; i++) {
        if (i < names) {
          s12[i] = rows[i][4];
        }
        s40[i] = rows[i][5];
      }
      for (int i = 0; i < rows.length; i++) {
        rows[i][1] = (long) i;
        rows[i][2] = r.nextInt(10_000) / 100.0;
        rows[i][4] = s12[r.nextInt(names)];
        rows[i][5] = s40[r.nextInt(texts)];
      }
    }
    return rows;
  }

  /** Runs one client JVM inside the namespace and returns the rows per second it reports. */
  private static double runClient(Link link, String url, String db, Compression c, int rows,
      String workload) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", link.namespace, java,
        "-Xmx2g", "-cp", System.getProperty("java.class.path"),
        NetworkCompression.class.getName(), "--client", url, db, c.name(),
        Integer.toString(rows), workload));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IllegalStateException("the client failed: " + cmd + "\n" + out);
    }
    for (String line : out.split("\n")) {
      if (line.startsWith("RESULT ")) {
        return Double.parseDouble(line.substring(7).trim());
      }
    }
    throw new IllegalStateException("the client printed no RESULT line:\n" + out);
  }

  /** The client: pushes the rows through the facade and prints {@code RESULT <rows/s>}. */
  private static void client(String[] args) throws Exception {
    String url = args[1];
    String db = args[2];
    Compression c = Compression.valueOf(args[3]);
    int count = Integer.parseInt(args[4]);
    Object[][] rows = rows(args[5], count);
    long start = System.nanoTime();
    DeliveryReport report;
    try (ClickHouseSink<Object[]> sink = ClickHouseSink.forObjectArrays().url(url)
        .table(db, TABLE).format(InsertFormat.NATIVE).compression(c).build()) {
      for (Object[] row : rows) {
        if (sink.push(row) == FlowControl.BLOCKED && !sink.awaitRoom(Duration.ofMinutes(1))) {
          throw new IllegalStateException("no room after a minute: " + sink);
        }
      }
      report = sink.close(Duration.ofMinutes(5));
    }
    long nanos = System.nanoTime() - start;
    if (!report.allDelivered()) {
      throw new IllegalStateException(report.summary());
    }
    System.out.println("RESULT " + count / (nanos / 1e9));
  }

  private static double median(List<double[]> runs, int index) {
    double[] v = runs.stream().mapToDouble(r -> r[index]).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** The namespace, the veth pair and the rate limit; {@link #delete} undoes what was made. */
  private static final class Link {
    final String namespace;
    final String outer;
    final String inner;
    final int subnet;

    Link(String namespace, String outer, String inner, int subnet) {
      this.namespace = namespace;
      this.outer = outer;
      this.inner = inner;
      this.subnet = subnet;
    }

    String rootAddress() {
      return "10.213." + subnet + ".1";
    }

    void create(String rate) throws IOException, InterruptedException {
      run("ip", "netns", "add", namespace);
      run("ip", "link", "add", outer, "type", "veth", "peer", "name", inner);
      run("ip", "link", "set", inner, "netns", namespace);
      run("ip", "addr", "add", rootAddress() + "/30", "dev", outer);
      run("ip", "link", "set", outer, "up");
      run("ip", "netns", "exec", namespace, "ip", "addr", "add", "10.213." + subnet + ".2/30",
          "dev", inner);
      run("ip", "netns", "exec", namespace, "ip", "link", "set", inner, "up");
      run("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up");
      // The client's egress: a token bucket at the rate, with a burst above one GSO packet.
      run("ip", "netns", "exec", namespace, "tc", "qdisc", "add", "dev", inner, "root", "tbf",
          "rate", rate, "burst", "256kb", "latency", "50ms");
    }

    void delete() {
      try {
        runQuietly("ip", "link", "del", outer);
        runQuietly("ip", "netns", "del", namespace);
      } catch (IOException | InterruptedException e) {
        System.err.println("cleaning up " + namespace + ": " + e);
      }
    }

    private static void run(String... cmd) throws IOException, InterruptedException {
      Process p;
      try {
        p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      } catch (IOException e) {
        throw new IOException(String.join(" ", cmd) + ": " + e.getMessage(), e);
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.waitFor() != 0) {
        throw new IOException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": "
            + out);
      }
    }

    private static void runQuietly(String... cmd) throws IOException, InterruptedException {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      p.waitFor();
    }
  }
}
