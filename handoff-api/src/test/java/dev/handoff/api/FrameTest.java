package dev.handoff.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import org.junit.jupiter.api.Test;

final class FrameTest {

  @Test
  void equalsAndHashCode_dependOnContentOnlyNotOnBackingArraySize() {
    // A split frame usually sits in a larger array than its length.
    ChunkBuffer buf = new ChunkBuffer(64);
    buf.writeBytes(new byte[] {1, 2, 3});
    Frame split = buf.split();
    Frame copy = Frame.copyOf(new byte[] {1, 2, 3});

    assertThat(split).isEqualTo(copy);
    assertThat(copy).isEqualTo(split);
    assertThat(split.hashCode()).isEqualTo(copy.hashCode());
    assertThat(split).isEqualTo(split);
  }

  @Test
  void equals_distinguishesContentLengthAndType() {
    Frame frame = Frame.copyOf(new byte[] {1, 2, 3});
    assertThat(frame).isNotEqualTo(Frame.copyOf(new byte[] {1, 2, 4}));
    assertThat(frame).isNotEqualTo(Frame.copyOf(new byte[] {1, 2}));
    assertThat(frame).isNotEqualTo(Frame.empty());
    assertThat(frame).isNotEqualTo(new byte[] {1, 2, 3});
    assertThat(frame).isNotEqualTo(null);
  }

  @Test
  void empty_isEqualToAnEmptyCopyAndHasLengthZero() {
    assertThat(Frame.empty().length()).isZero();
    assertThat(Frame.copyOf(new byte[0])).isEqualTo(Frame.empty());
    assertThat(Frame.copyOf(new byte[0]).hashCode()).isEqualTo(Frame.empty().hashCode());
    assertThat(Frame.empty().toByteArray()).isEmpty();
  }

  @Test
  void copyOf_isIndependentOfTheSourceArray() {
    byte[] source = {1, 2, 3};
    Frame frame = Frame.copyOf(source);
    source[0] = 99;
    assertThat(frame.byteAt(0)).isEqualTo((byte) 1);
    assertThat(frame.toByteArray()).containsExactly(1, 2, 3);
  }

  @Test
  void toByteArray_returnsACopyEachTime() {
    Frame frame = Frame.copyOf(new byte[] {1, 2, 3});
    byte[] first = frame.toByteArray();
    first[0] = 99;
    assertThat(frame.toByteArray()).containsExactly(1, 2, 3);
    assertThat(frame.toByteArray()).isNotSameAs(frame.toByteArray());
  }

  @Test
  void asReadOnlyBuffer_exposesExactlyTheFrameBytesAndRejectsWrites() {
    ChunkBuffer buf = new ChunkBuffer(32);
    buf.writeBytes(new byte[] {5, 6, 7});
    Frame frame = buf.split();

    ByteBuffer view = frame.asReadOnlyBuffer();

    assertThat(view.isReadOnly()).isTrue();
    assertThat(view.position()).isZero();
    assertThat(view.remaining()).isEqualTo(3);
    assertThat(view.capacity()).isEqualTo(3);
    assertThat(view.get(0)).isEqualTo((byte) 5);
    assertThat(view.get(2)).isEqualTo((byte) 7);
    assertThatThrownBy(() -> view.put(0, (byte) 1)).isInstanceOf(ReadOnlyBufferException.class);
  }

  @Test
  void asReadOnlyBuffer_returnsIndependentViews() {
    Frame frame = Frame.copyOf(new byte[] {1, 2});
    ByteBuffer first = frame.asReadOnlyBuffer();
    first.get();
    assertThat(frame.asReadOnlyBuffer().position()).isZero();
  }

  @Test
  void byteAt_rejectsIndexesOutsideTheFrame() {
    ChunkBuffer buf = new ChunkBuffer(16);
    buf.writeBytes(new byte[] {1, 2});
    Frame frame = buf.split();
    assertThatThrownBy(() -> frame.byteAt(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    // Index 2 lies inside the backing array but outside the frame.
    assertThatThrownBy(() -> frame.byteAt(2)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void copyToAndWriteTo_emitExactlyTheFrameBytes() throws IOException {
    ChunkBuffer buf = new ChunkBuffer(16);
    buf.writeBytes(new byte[] {1, 2, 3});
    Frame frame = buf.split();

    byte[] dest = new byte[5];
    frame.copyTo(dest, 1);
    assertThat(dest).containsExactly(0, 1, 2, 3, 0);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    frame.writeTo(out);
    assertThat(out.toByteArray()).containsExactly(1, 2, 3);
  }

  @Test
  void toString_reportsTheLength() {
    assertThat(Frame.copyOf(new byte[7]).toString()).contains("7");
  }
}
