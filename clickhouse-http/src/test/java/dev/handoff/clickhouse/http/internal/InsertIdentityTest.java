package dev.handoff.clickhouse.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** {@link InsertIdentity}: the fields it names and the CRC32C of the whole body. */
final class InsertIdentityTest {

  private static Insert insert(int rows, String... frames) {
    List<Frame> list = java.util.Arrays.stream(frames)
        .map(f -> Frame.copyOf(f.getBytes(StandardCharsets.ISO_8859_1))).toList();
    long bytes = list.stream().mapToLong(Frame::length).sum();
    return new Insert(1, 7, 9, list, rows, bytes, 1);
  }

  @Test
  void namesTheInsert_andTheCrc32cOfItsFramesInOrder() {
    CRC32C whole = new CRC32C();
    whole.update("abcdefgh".getBytes(StandardCharsets.ISO_8859_1));

    String id = InsertIdentity.of("run", insert(3, "abc", "defgh"));

    assertThat(id).isEqualTo(String.format("handoff-run-s1-q7-9-r3-c%08x", whole.getValue()));
    // The same body cut otherwise has the same identity; another order or body does not.
    assertThat(InsertIdentity.of("run", insert(3, "abcde", "fgh"))).isEqualTo(id);
    assertThat(InsertIdentity.of("run", insert(3, "defgh", "abc"))).isNotEqualTo(id);
    assertThat(InsertIdentity.of("run", insert(2, "abc", "defgh"))).isNotEqualTo(id);
  }
}
