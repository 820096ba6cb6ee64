package dev.handoff.clickhouse.http.internal;

import dev.handoff.api.Frame;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes frames as read-only views of their bytes, one buffer per frame, so a request body is
 * streamed from the frames without copying them; or, made by {@link #ofBuffers}, a compressed
 * body's buffers. Each subscription starts at the first buffer, so the HTTP client may subscribe
 * again when it resends a request.
 */
final class FramesPublisher implements Flow.Publisher<ByteBuffer> {
  private final List<Frame> frames;
  private final List<ByteBuffer> buffers;

  FramesPublisher(List<Frame> frames) {
    this.frames = frames;
    this.buffers = null;
  }

  private FramesPublisher(List<ByteBuffer> buffers, boolean unused) {
    this.frames = null;
    this.buffers = buffers;
  }

  /** Returns a publisher of {@code buffers}, each emitted as a fresh view of the same bytes. */
  static FramesPublisher ofBuffers(List<ByteBuffer> buffers) {
    return new FramesPublisher(buffers, true);
  }

  private int size() {
    return frames != null ? frames.size() : buffers.size();
  }

  private ByteBuffer view(int index) {
    return frames != null ? frames.get(index).asReadOnlyBuffer() : buffers.get(index).duplicate();
  }

  @Override
  public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
    subscriber.onSubscribe(new Sub(subscriber));
  }

  private final class Sub implements Flow.Subscription {
    private final Flow.Subscriber<? super ByteBuffer> subscriber;
    private final AtomicLong demand = new AtomicLong();
    private final AtomicInteger wip = new AtomicInteger();
    private final AtomicBoolean done = new AtomicBoolean();
    private int next; // touched only by the thread that holds wip

    Sub(Flow.Subscriber<? super ByteBuffer> subscriber) {
      this.subscriber = subscriber;
    }

    @Override
    public void request(long n) {
      if (n <= 0) {
        if (done.compareAndSet(false, true)) {
          subscriber.onError(new IllegalArgumentException("request " + n + " (expected: > 0)"));
        }
        return;
      }
      demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
      drain();
    }

    @Override
    public void cancel() {
      done.set(true);
    }

    /** Emits while there is demand; reentrant calls from onNext only add to the count. */
    private void drain() {
      if (wip.getAndIncrement() != 0) {
        return;
      }
      int missed = 1;
      while (true) {
        while (!done.get() && next < size() && demand.get() > 0) {
          demand.decrementAndGet();
          subscriber.onNext(view(next++));
        }
        if (!done.get() && next >= size() && done.compareAndSet(false, true)) {
          subscriber.onComplete();
        }
        missed = wip.addAndGet(-missed);
        if (missed == 0) {
          return;
        }
      }
    }
  }
}
