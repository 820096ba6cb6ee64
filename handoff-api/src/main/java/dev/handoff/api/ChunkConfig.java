package dev.handoff.api;

import java.util.Objects;

/**
 * Tuning for the sink stage's per-shard chunking.
 *
 * @param targetBytes seal a shard's chunk once its encoded size reaches this many bytes. Small
 *     enough to flow steadily, large enough to amortize queue traffic; sink workers merge chunks
 *     into full inserts, so this does not bound insert sizes. Must be {@code > 0}; default 64 KiB.
 * @param encodePolicy what to do with a record an encoder rejects as bad data; default {@link
 *     ErrorPolicy#SKIP}. A {@link ErrorClass#FATAL} error stops the stage whatever this says.
 */
public record ChunkConfig(int targetBytes, ErrorPolicy encodePolicy) {

  /** The default target: 64 KiB. */
  public static final int DEFAULT_TARGET_BYTES = 64 * 1024;

  /** Validates the fields. */
  public ChunkConfig {
    if (targetBytes <= 0) {
      throw new IllegalArgumentException("targetBytes : " + targetBytes + " (expected: > 0)");
    }
    Objects.requireNonNull(encodePolicy, "encodePolicy");
  }

  /** Returns the defaults: 64 KiB target, {@link ErrorPolicy#SKIP}. */
  public static ChunkConfig defaults() {
    return new ChunkConfig(DEFAULT_TARGET_BYTES, ErrorPolicy.SKIP);
  }

  /** Returns a copy with another target size. */
  public ChunkConfig withTargetBytes(int bytes) {
    return new ChunkConfig(bytes, encodePolicy);
  }

  /** Returns a copy with another encode policy. */
  public ChunkConfig withEncodePolicy(ErrorPolicy policy) {
    return new ChunkConfig(targetBytes, policy);
  }
}
