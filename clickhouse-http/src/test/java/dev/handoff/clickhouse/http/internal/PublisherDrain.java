package dev.handoff.clickhouse.http.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

/** Subscribes to a body publisher as the HTTP client does, one buffer at a time. */
final class PublisherDrain {
  private PublisherDrain() {}

  /** Returns every byte the publisher emits on one subscription, in order. */
  static byte[] drain(Flow.Publisher<ByteBuffer> publisher) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CompletableFuture<byte[]> done = new CompletableFuture<>();
    publisher.subscribe(new Flow.Subscriber<ByteBuffer>() {
      private Flow.Subscription subscription;

      @Override
      public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1);
      }

      @Override
      public void onNext(ByteBuffer item) {
        byte[] a = new byte[item.remaining()];
        item.get(a);
        out.writeBytes(a);
        subscription.request(1);
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onComplete() {
        done.complete(out.toByteArray());
      }
    });
    return done.get(10, TimeUnit.SECONDS);
  }
}
