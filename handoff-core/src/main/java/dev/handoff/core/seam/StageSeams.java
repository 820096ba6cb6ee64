package dev.handoff.core.seam;

import dev.handoff.core.Chain;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.ack.BatchListener;
import dev.handoff.core.ack.SourceAcks;
import java.util.Objects;

/**
 * Builds a {@link SinkHandoff} or a {@link Chain} with a {@link StageMutation}. The package is exported only to the
 * simulator module ({@code exports dev.handoff.core.seam to dev.handoff.simulator}), so no
 * pipeline can reach a broken stage; the public builder always builds the real one.
 *
 * <p>The stage keeps its mutation in a final field and tests it only on paths where a mutation
 * acts; with {@link StageMutation#NONE} those are a few predictable branches and nothing else.
 */
public final class StageSeams {

  /** What {@link SinkHandoff} hands this class when it is initialised. */
  public interface Access {
    /** Builds {@code builder}'s stage with {@code mutation}. */
    <T> SinkHandoff<T> build(SinkHandoff.Builder<T> builder, StageMutation mutation);
  }

  /** What {@link Chain} hands this class when it is initialised. */
  public interface ChainAccess {
    /** Builds {@code builder}'s chain with {@code mutation}. */
    <T> Chain<T> build(Chain.Builder<T> builder, StageMutation mutation);
  }

  /** What {@link SourceAcks} hands this class when it is initialised. */
  public interface AcksAccess {
    /** Creates a tracker like the public constructor, with {@code mutation}. */
    SourceAcks create(String source, long firstBatchId, BatchListener listener,
        StageMutation mutation);
  }

  private static volatile AcksAccess acksAccess;
  private static volatile Access access;
  private static volatile ChainAccess chainAccess;

  private StageSeams() {}

  /**
   * Called once by {@link SinkHandoff}'s static initialiser.
   *
   * @throws IllegalStateException when called again
   */
  public static synchronized void install(Access a) {
    if (access != null) {
      throw new IllegalStateException("the stage seam is installed by SinkHandoff only");
    }
    access = Objects.requireNonNull(a, "access");
  }

  /**
   * Called once by {@link SourceAcks}'s static initialiser.
   *
   * @throws IllegalStateException when called again
   */
  public static synchronized void installAcks(AcksAccess a) {
    if (acksAccess != null) {
      throw new IllegalStateException("the acks seam is installed by SourceAcks only");
    }
    acksAccess = Objects.requireNonNull(a, "access");
  }

  /**
   * Creates a {@link SourceAcks} like {@code new SourceAcks(source, firstBatchId, listener)},
   * broken as {@code mutation} says (only {@link StageMutation#CHECKPOINT_LAGS} acts on it).
   */
  public static SourceAcks sourceAcks(String source, long firstBatchId, BatchListener listener,
      StageMutation mutation) {
    if (acksAccess == null) {
      try { // initialising SourceAcks installs the access
        Class.forName(SourceAcks.class.getName(), true, StageSeams.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return acksAccess.create(source, firstBatchId, listener, mutation);
  }

  /**
   * Called once by {@link Chain}'s static initialiser.
   *
   * @throws IllegalStateException when called again
   */
  public static synchronized void installChain(ChainAccess a) {
    if (chainAccess != null) {
      throw new IllegalStateException("the chain seam is installed by Chain only");
    }
    chainAccess = Objects.requireNonNull(a, "access");
  }

  /**
   * Builds the chain {@code builder} describes, broken as {@code mutation} says (only {@link
   * StageMutation#IGNORE_BACKPRESSURE} acts on a chain; a builder exists only after {@link
   * Chain#builder} initialised {@link Chain}).
   */
  public static <T> Chain<T> buildChain(Chain.Builder<T> builder, StageMutation mutation) {
    Objects.requireNonNull(builder, "builder");
    Objects.requireNonNull(mutation, "mutation");
    return chainAccess.build(builder, mutation);
  }

  /**
   * Builds the stage {@code builder} describes, broken as {@code mutation} says. (A builder exists
   * only after {@link SinkHandoff#builder} ran, which initialised {@link SinkHandoff} and so
   * installed the seam.)
   */
  public static <T> SinkHandoff<T> build(SinkHandoff.Builder<T> builder, StageMutation mutation) {
    Objects.requireNonNull(builder, "builder");
    Objects.requireNonNull(mutation, "mutation");
    return access.build(builder, mutation);
  }
}
