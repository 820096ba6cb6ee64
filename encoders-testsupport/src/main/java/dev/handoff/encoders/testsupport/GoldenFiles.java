package dev.handoff.encoders.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * The golden files of one encoder module: resources under {@code /golden/}, opened by code of
 * that module. Its test resources are patched into the module with its test classes, and a
 * resource directory that is a valid package name (such as {@code golden/derived}) is
 * encapsulated there, so only the module itself can open it: {@code
 * GoldenFiles.of(path -> SomeTest.class.getResourceAsStream(path))}.
 */
public final class GoldenFiles {
  private final Function<String, InputStream> open;

  private GoldenFiles(Function<String, InputStream> open) {
    this.open = open;
  }

  /**
   * Returns the golden files opened by {@code open}, which returns the stream of an absolute
   * resource name, or {@code null} when there is none; it must be code of the module holding
   * the files (a lambda calling {@code Class.getResourceAsStream} on one of its classes).
   */
  public static GoldenFiles of(Function<String, InputStream> open) {
    return new GoldenFiles(open);
  }

  /**
   * Returns the bytes of the resource {@code /golden/<path>}.
   *
   * @throws IllegalStateException when there is no such resource
   */
  public byte[] bytes(String path) {
    try (InputStream in = open.apply("/golden/" + path)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource /golden/" + path);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Returns the JSON resource {@code /golden/<path>} as a tree. */
  public JsonNode json(String path) {
    try {
      return Golden.JSON.readTree(bytes(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
