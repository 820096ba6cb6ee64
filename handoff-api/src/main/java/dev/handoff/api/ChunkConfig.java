package dev.handoff.api;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning for the sink stage's per-shard chunking.
 *
 * @param targetBytes seal a shard's chunk once its encoded size reaches this many bytes. Small
 *     enough to flow steadily, large enough to amortize queue traffic; sink workers merge chunks
 *     into full inserts, so this does not bound insert sizes. Must be {@code > 0}; default 64 KiB.
 * @param encodePolicy what to do with a record an encoder rejects as bad data; default {@link
 *     ErrorPolicy#SKIP}. A {@link ErrorClass#FATAL} error stops the stage whatever this says.
 * @param maxChunkAge the longest a row may wait in a shard's open chunk: a chunk whose first row
 *     is this old seals at the next age check even when it is below the target (as Kafka's
 *     {@code linger.ms} and Flink's {@code maxTimeInBufferMS}), so a slow trickle of records
 *     still goes out. Must be {@code > 0}; default 1 s.
 */
public record ChunkConfig(int targetBytes, ErrorPolicy encodePolicy, Duration maxChunkAge) {

  /** The default target: 64 KiB. */
  public static final int DEFAULT_TARGET_BYTES = 64 * 1024;

  /** The default longest wait of a row in an open chunk: 1 s. */
  public static final Duration DEFAULT_MAX_CHUNK_AGE = Duration.ofSeconds(1);

  /** Validates the fields. */
  public ChunkConfig {
    if (targetBytes <= 0) {
      throw new IllegalArgumentException("targetBytes : " + targetBytes + " (expected: > 0)");
    }
    Objects.requireNonNull(encodePolicy, "encodePolicy");
    Objects.requireNonNull(maxChunkAge, "maxChunkAge");
    if (maxChunkAge.isNegative() || maxChunkAge.isZero()) {
      throw new IllegalArgumentException("maxChunkAge : " + maxChunkAge + " (expected: > 0)");
    }
  }

  /** Creates a config with the default {@linkplain #maxChunkAge() maximum chunk age}. */
  public ChunkConfig(int targetBytes, ErrorPolicy encodePolicy) {
    this(targetBytes, encodePolicy, DEFAULT_MAX_CHUNK_AGE);
  }

  /** Returns the defaults: 64 KiB target, {@link ErrorPolicy#SKIP}, 1 s maximum chunk age. */
  public static ChunkConfig defaults() {
    return new ChunkConfig(DEFAULT_TARGET_BYTES, ErrorPolicy.SKIP, DEFAULT_MAX_CHUNK_AGE);
  }

  /** Returns a copy with another target size. */
  public ChunkConfig withTargetBytes(int bytes) {
    return new ChunkConfig(bytes, encodePolicy, maxChunkAge);
  }

  /** Returns a copy with another encode policy. */
  public ChunkConfig withEncodePolicy(ErrorPolicy policy) {
    return new ChunkConfig(targetBytes, policy, maxChunkAge);
  }

  /** Returns a copy with another maximum chunk age. */
  public ChunkConfig withMaxChunkAge(Duration age) {
    return new ChunkConfig(targetBytes, encodePolicy, age);
  }
}
