package dev.handoff.core.sink;

import dev.handoff.api.Frame;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.WriteException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A test writer: rows are 8-byte ids; an insert holding a poison id fails permanently (as a
 * server rejects a bad row); a script may fail attempts before that. Records what it wrote.
 */
final class ScriptedWriter implements InsertWriter {
  final Set<Long> poison = ConcurrentHashMap.newKeySet();
  final List<Insert> attempts = new CopyOnWriteArrayList<>();
  final List<Insert> written = new CopyOnWriteArrayList<>();
  private final List<List<Long>> rowsByShard;
  volatile boolean splittable;
  /** Runs before the poison check; returns an exception to throw, or null to go on. */
  volatile Function<Insert, Exception> script = i -> null;

  ScriptedWriter(int shards) {
    List<List<Long>> l = new ArrayList<>();
    for (int i = 0; i < shards; i++) {
      l.add(Collections.synchronizedList(new ArrayList<>()));
    }
    this.rowsByShard = l;
  }

  @Override
  public void write(Insert insert) throws WriteException {
    attempts.add(insert);
    Exception e = script.apply(insert);
    if (e instanceof WriteException we) {
      throw we;
    }
    if (e instanceof RuntimeException re) {
      throw re;
    }
    List<Long> rows = new ArrayList<>();
    for (Frame f : insert.frames()) {
      rows.addAll(SinkFixture.decode(f));
    }
    for (Long id : rows) {
      if (poison.contains(id)) {
        throw new WriteException(WriteException.Kind.PERMANENT, 27,
            "Code: 27. DB::Exception: Cannot parse input: row " + id, null);
      }
    }
    rowsByShard.get(insert.shard()).addAll(rows);
    written.add(insert);
  }

  @Override
  public Optional<List<Frame>> split(Frame frame) {
    if (!splittable) {
      return Optional.empty();
    }
    List<Frame> out = new ArrayList<>();
    for (Long id : SinkFixture.decode(frame)) {
      byte[] b = new byte[8];
      for (int i = 0; i < 8; i++) {
        b[i] = (byte) (id >>> (8 * i));
      }
      out.add(Frame.copyOf(b));
    }
    return Optional.of(out);
  }

  List<Long> rows(int shard) {
    synchronized (rowsByShard.get(shard)) {
      return new ArrayList<>(rowsByShard.get(shard));
    }
  }

  Set<Long> allRows() {
    Set<Long> s = new HashSet<>();
    for (int i = 0; i < rowsByShard.size(); i++) {
      s.addAll(rows(i));
    }
    return s;
  }

  static WriteException transientError() {
    return new WriteException(WriteException.Kind.TRANSIENT, -1, "connection reset", null);
  }
}
