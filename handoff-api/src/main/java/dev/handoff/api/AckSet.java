package dev.handoff.api;

import java.lang.ref.Cleaner;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The acknowledgement handles a chunk carries: one entry per run of consecutive records of the
 * same source batch. Each {@link #add} retains the batch; {@link #succeed} or {@link #fail}
 * releases every entry, exactly once.
 *
 * <p>Java has no destructor that runs when a set is dropped, so an unresolved set would leave its
 * batches pending forever. A leak detector ({@link Cleaner}) watches every non-empty set: when one
 * becomes unreachable without being resolved, the detector fails its batches (they replay),
 * counts the leak in {@link #leaksDetected()} and logs a warning. Teardown code still resolves
 * every set explicitly; the detector is the safety net that turns a bug into a replay instead of
 * a stuck checkpoint.
 *
 * <p><b>Threading:</b> {@link #add} is called by one thread (the pipeline thread) before the set
 * is published through a queue; {@link #succeed} and {@link #fail} may be called from any thread
 * after that, and only the first of them wins.
 */
public final class AckSet {

  private static final Cleaner CLEANER = Cleaner.create();
  private static final AtomicLong LEAKS = new AtomicLong();

  private static final int OPEN = 0;
  private static final int SUCCEEDED = 1;
  private static final int FAILED = 2;

  /*
   * The state lives in its own object so that the cleaning action does not reach the AckSet
   * itself (which would keep it reachable forever).
   */
  private final State state = new State();
  private Cleaner.Cleanable cleanable;

  /** Creates an empty, open set. */
  public AckSet() {}

  /**
   * Retains {@code ack} and adds it to this set.
   *
   * @throws IllegalStateException if the set is already resolved
   */
  public void add(Ack ack) {
    if (state.status.get() != OPEN) {
      throw new IllegalStateException(
          "cannot add batch " + ack.batchId() + " to an ack set that is already resolved");
    }
    if (ack == Ack.NONE) {
      return;
    }
    ack.retain();
    state.append(ack);
    if (cleanable == null) {
      cleanable = CLEANER.register(this, state);
    }
  }

  /** Returns how many entries the set holds. */
  public int size() {
    return state.size;
  }

  /** Returns whether the set holds no entry. */
  public boolean isEmpty() {
    return state.size == 0;
  }

  /** Returns the batch id of entry {@code index}, in the order entries were added. */
  public long batchIdAt(int index) {
    if (index < 0 || index >= state.size) {
      throw new IndexOutOfBoundsException("index " + index + ", size " + state.size);
    }
    return state.acks[index].batchId();
  }

  /** Returns whether {@link #succeed} or {@link #fail} has been called. */
  public boolean isResolved() {
    return state.status.get() != OPEN;
  }

  /**
   * Releases every entry as delivered.
   *
   * @throws IllegalStateException if the set was already resolved
   */
  public void succeed() {
    resolve(SUCCEEDED, null);
  }

  /**
   * Marks every entry's batch failed and releases it, so those batches replay.
   *
   * @param cause why the output was not delivered
   * @throws IllegalStateException if the set was already resolved
   */
  public void fail(Throwable cause) {
    resolve(FAILED, cause);
  }

  private void resolve(int outcome, Throwable cause) {
    if (!state.status.compareAndSet(OPEN, outcome)) {
      throw new IllegalStateException(
          "ack set of " + state.size + " batch(es) already resolved as "
              + (state.status.get() == SUCCEEDED ? "delivered" : "failed"));
    }
    state.releaseAll(cause);
    if (cleanable != null) {
      cleanable.clean(); // deregisters; the action sees the set resolved and does nothing
    }
  }

  /** Returns how many unresolved sets the leak detector has failed since the JVM started. */
  public static long leaksDetected() {
    return LEAKS.get();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("AckSet{batches=[");
    for (int i = 0; i < state.size; i++) {
      sb.append(i == 0 ? "" : ", ").append(state.acks[i].batchId());
    }
    int s = state.status.get();
    return sb.append("], ").append(s == OPEN ? "open" : s == SUCCEEDED ? "delivered" : "failed")
        .append('}').toString();
  }

  private static final class State implements Runnable {
    final AtomicInteger status = new AtomicInteger(OPEN);
    Ack[] acks = new Ack[2];
    int size;

    void append(Ack ack) {
      if (size == acks.length) {
        acks = Arrays.copyOf(acks, size * 2);
      }
      acks[size++] = ack;
    }

    void releaseAll(Throwable cause) {
      for (int i = 0; i < size; i++) {
        if (cause != null) {
          acks[i].fail(cause);
        }
        acks[i].release();
      }
    }

    /** The leak detector's action: runs when the set became unreachable or was cleaned. */
    @Override
    public void run() {
      if (status.compareAndSet(OPEN, FAILED)) {
        LEAKS.incrementAndGet();
        IllegalStateException cause = new IllegalStateException(
            "an ack set of " + size + " batch(es) was never resolved (leak); failing it so the"
                + " batches replay");
        // Looked up here, not in a static field: the JDK's logging costs every start-up about
        // 10 ms, and only a leak needs it.
        System.getLogger(AckSet.class.getName()).log(System.Logger.Level.WARNING,
            cause.getMessage());
        releaseAll(cause);
      }
    }
  }
}
