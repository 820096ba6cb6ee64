package dev.handoff.clickhouse.testserver;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Finds the installed libchdb and builds the launcher that serves it: the library directory
 * comes from the system property {@value Chdb#DIR_PROPERTY}, else the environment variable
 * {@value Chdb#DIR_ENV}, else the cache directory {@code ./run-tests} installs into; the launcher
 * is compiled with {@code gcc} from the C source in this module's resources, once per source and
 * library, next to the library (or in the temp directory when that is not writable).
 */
final class ChdbLibrary {
  /** The size of the pinned package's {@code libchdb.so}, to tell a complete file from a partial one. */
  static final long LIBRARY_BYTES = 566_330_096L;

  private static final String SOURCE = "chdb-launcher.c";
  private static final String TARBALL = "chdb-lib-linux-x64-gnu-" + Chdb.PACKAGE_VERSION + ".tgz";

  private static final Map<Path, Path> LAUNCHERS = new HashMap<>(); // guarded by ChdbLibrary.class

  private ChdbLibrary() {}

  /** Where the library is looked for, and what chose that directory. */
  record Location(Path directory, String source) {}

  /** The directory to look in: the system property, else the environment variable, else the cache. */
  static Location location(String property, Map<String, String> env, String userHome) {
    if (property != null && !property.isBlank()) {
      return new Location(Path.of(property).toAbsolutePath(), "-D" + Chdb.DIR_PROPERTY);
    }
    String fromEnv = env.get(Chdb.DIR_ENV);
    if (fromEnv != null && !fromEnv.isBlank()) {
      return new Location(Path.of(fromEnv).toAbsolutePath(), Chdb.DIR_ENV);
    }
    return new Location(defaultDirectory(env, userHome), "the default cache directory");
  }

  /** {@code ${XDG_CACHE_HOME:-$HOME/.cache}/handoff/chdb/<version>}, as in {@code ./run-tests}. */
  static Path defaultDirectory(Map<String, String> env, String userHome) {
    String xdg = env.get("XDG_CACHE_HOME");
    Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(userHome, ".cache");
    return cache.resolve("handoff").resolve("chdb").resolve(Chdb.PACKAGE_VERSION).toAbsolutePath();
  }

  /**
   * The {@code libchdb.so} at {@code location}: {@code package/libchdb.so} (as the npm tarball
   * unpacks) or {@code libchdb.so} directly in it.
   *
   * @throws ChdbException saying how to install it, when it is missing or incomplete; in CI ({@code
   *     ci} true) the message says too that the test is not skipped there
   */
  static Path library(Location location, boolean ci) {
    Path dir = location.directory();
    for (Path candidate : List.of(dir.resolve("package/libchdb.so"), dir.resolve("libchdb.so"))) {
      if (Files.isRegularFile(candidate)) {
        long size = size(candidate);
        if (size != LIBRARY_BYTES) {
          throw new ChdbException(candidate + " has " + size + " bytes, not the " + LIBRARY_BYTES
              + " of @chdb/lib-linux-x64-gnu@" + Chdb.PACKAGE_VERSION + " (an interrupted"
              + " download or another version): delete " + dir + " and install it again.\n"
              + howToInstall(location, ci));
        }
        return candidate;
      }
    }
    throw new ChdbException("libchdb (ClickHouse " + Chdb.ENGINE_VERSION + " in process, npm"
        + " @chdb/lib-linux-x64-gnu@" + Chdb.PACKAGE_VERSION + ") is not installed: no"
        + " package/libchdb.so in " + dir + " (" + location.source() + ").\n"
        + howToInstall(location, ci));
  }

  private static String howToInstall(Location location, boolean ci) {
    String dir = location.directory().toString();
    String manual = "  mkdir -p " + dir + " && cd " + dir + " && npm pack @chdb/lib-linux-x64-gnu@"
        + Chdb.PACKAGE_VERSION + " && tar xzf " + TARBALL + " && rm " + TARBALL;
    String head = ci
        ? "CI=true: tests that need the ClickHouse 26.7 engine fail here instead of being skipped."
            + " .ci/run calls ./run-tests, which downloads it before Maven runs; check its log for"
            + " the download, and that " + Chdb.DIR_ENV + " names the same directory. By hand:\n"
        : "./run-tests downloads it (178 MB, 570 MB unpacked) into ${XDG_CACHE_HOME:-$HOME/.cache}"
            + "/handoff/chdb/" + Chdb.PACKAGE_VERSION + " (or $" + Chdb.DIR_ENV + ") before it"
            + " runs Maven. By hand (needs npm):\n";
    return head + manual + "\nor point " + Chdb.DIR_ENV + " (or -D" + Chdb.DIR_PROPERTY
        + ") at a directory holding package/libchdb.so.";
  }

  /**
   * The launcher executable for {@code library}: built on the first call in this JVM unless a
   * build of the same source against the same library is already there.
   *
   * @throws ChdbException when gcc is missing or fails (with its output)
   */
  static synchronized Path launcher(Path library) {
    Path built = LAUNCHERS.get(library);
    if (built != null && Files.isExecutable(built)) {
      return built;
    }
    byte[] source = readSource();
    Path libDir = library.getParent().toAbsolutePath();
    String name = "chdb-launcher-" + fingerprint(source, libDir.toString());
    Path home = libDir.getFileName().toString().equals("package") ? libDir.getParent() : libDir;
    for (Path dir : List.of(home.resolve("launcher"), fallbackDirectory())) {
      Path candidate = dir.resolve(name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        LAUNCHERS.put(library, candidate);
        return candidate;
      }
      if (prepare(dir)) {
        LAUNCHERS.put(library, compile(source, libDir, candidate));
        return candidate;
      }
    }
    throw new ChdbException("no writable directory to build the chdb launcher in: tried "
        + home.resolve("launcher") + " and " + fallbackDirectory());
  }

  private static Path fallbackDirectory() {
    return Path.of(System.getProperty("java.io.tmpdir"),
        "handoff-chdb-launcher-" + System.getProperty("user.name", "user"));
  }

  private static boolean prepare(Path dir) {
    try {
      Files.createDirectories(dir);
      return Files.isWritable(dir);
    } catch (IOException e) {
      return false;
    }
  }

  /** Compiles into a private temp file, then moves it into place, so parallel builds do not clash. */
  private static Path compile(byte[] source, Path libDir, Path target) {
    Path dir = target.getParent();
    Path work = null;
    try {
      work = Files.createTempDirectory(dir, "build-");
      Path c = work.resolve(SOURCE);
      Files.write(c, source);
      Path out = work.resolve("chdb-launcher");
      List<String> command = List.of("gcc", "-O1", "-o", out.toString(), c.toString(),
          "-L" + libDir, "-lchdb", "-Wl,-rpath," + libDir);
      Process gcc;
      try {
        gcc = new ProcessBuilder(command).redirectErrorStream(true).start();
      } catch (IOException e) {
        throw new ChdbException("cannot run gcc to build the chdb launcher (" + e.getMessage()
            + "); install it (apt-get install gcc) and run again", e);
      }
      gcc.getOutputStream().close();
      String output = new String(gcc.getInputStream().readAllBytes(), UTF_8);
      if (!gcc.waitFor(120, TimeUnit.SECONDS) || gcc.exitValue() != 0 || !Files.isRegularFile(out)) {
        gcc.destroyForcibly();
        throw new ChdbException("gcc failed to build the chdb launcher: " + String.join(" ", command)
            + "\n" + output.strip());
      }
      try {
        Files.move(out, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(out, target, StandardCopyOption.REPLACE_EXISTING);
      }
      return target;
    } catch (IOException e) {
      throw new ChdbException("cannot build the chdb launcher in " + dir + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ChdbException("interrupted while building the chdb launcher", e);
    } finally {
      if (work != null) {
        deleteTree(work);
      }
    }
  }

  private static byte[] readSource() {
    try (InputStream in = ChdbLibrary.class.getResourceAsStream(SOURCE)) {
      if (in == null) {
        throw new ChdbException("the launcher source " + SOURCE + " is missing from this module");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new ChdbException("cannot read the launcher source " + SOURCE, e);
    }
  }

  private static String fingerprint(byte[] source, String libDir) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(source);
      sha.update((byte) 0);
      sha.update(libDir.getBytes(UTF_8));
      return HexFormat.of().formatHex(sha.digest(), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Deletes {@code root} and everything under it, without following links; true when it is gone. */
  static boolean deleteTree(Path root) {
    if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
      return true;
    } catch (IOException | UncheckedIOException e) {
      return !Files.exists(root, LinkOption.NOFOLLOW_LINKS);
    }
  }

  private static long size(Path path) {
    try {
      return Files.size(path);
    } catch (IOException e) {
      return -1;
    }
  }
}
