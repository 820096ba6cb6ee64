package dev.handoff.clickhouse.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Parsing a Distributed engine clause and building targets, without a server. */
final class DistributedTableTest {

  @Test
  void parse_readsQuotedAndBareArguments_andKeepsTheKeyAsText() {
    DistributedTable d = DistributedTable.parse("db", "dist",
        "Distributed(c2x2, 'd\\'b', `lo,cal`, cityHash64(id, concat(s, ',)')) % 4, 'policy')");
    assertThat(d.cluster()).isEqualTo("c2x2");
    assertThat(d.localDatabase()).isEqualTo("d'b");
    assertThat(d.localTable()).isEqualTo("lo,cal");
    assertThat(d.shardingKey()).isEqualTo(Optional.of("cityHash64(id, concat(s, ',)')) % 4"));
    assertThat(d.shardingColumn()).isEmpty();
  }

  @Test
  void parse_withoutKey_currentDatabase_andABareColumn() {
    assertThat(DistributedTable.parse("db", "d", "Distributed('c', currentDatabase(), t)"))
        .isEqualTo(new DistributedTable("db", "d", "c", "db", "t", Optional.empty()));
    DistributedTable d = DistributedTable.parse("db", "d",
        "Distributed(c, db, t, `user_id`) SETTINGS fsync_after_insert = 0");
    assertThat(d.shardingColumn()).isEqualTo(Optional.of("user_id"));
  }

  @Test
  void parse_rejectsOtherEnginesAndShortClauses() {
    assertThatThrownBy(() -> DistributedTable.parse("db", "t", "MergeTree ORDER BY id"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MergeTree");
    assertThatThrownBy(() -> DistributedTable.parse("db", "t", "Distributed(c, db)"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("db.t");
    assertThatThrownBy(() -> DistributedTable.parse("db", "t", "Distributed(c, 'db, t)"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("quote");
  }

  @Test
  void clusterTarget_validatesShardsAndReplicas() {
    ClusterTarget t = ClusterTarget.of(List.of(List.of("http://a:8123", "http://b:8123"),
        List.of("https://c:8443")));
    assertThat(t.shardCount()).isEqualTo(2);
    assertThat(t.totalWeight()).isEqualTo(2);
    assertThat(t.shards().get(1).number()).isEqualTo(2);
    assertThat(t.distributed()).isEmpty();
    assertThat(t.toString()).contains("http://b:8123");
    assertThatThrownBy(() -> ClusterTarget.of(List.of())).hasMessageContaining("no shard");
    assertThatThrownBy(() -> ClusterTarget.of(List.of(List.of())))
        .hasMessageContaining("no replica");
    assertThatThrownBy(() -> ClusterTarget.of(List.of(List.of("ftp://x"))))
        .hasMessageContaining("not an http(s) URL");
  }
}
