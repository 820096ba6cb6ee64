package dev.handoff.simulator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * The definition of every knob: name, default, description and how a value is checked and
 * normalised. The order of {@link #ALL} is the order of {@link SimulationOptions#describe()}, of
 * the replay command and of the reports.
 */
final class KnobSpec {

  /** How a knob's value is read. */
  enum Kind { INT, LONG_OR_NONE, RATE, CHOICE, TEXT }

  static final int SHARDS = 0;
  static final int QUEUE_CAPACITY = 1;
  static final int TARGET_BYTES = 2;
  static final int BUDGET_BYTES = 3;
  static final int RECORDS = 4;
  static final int SOURCES = 5;
  static final int BATCH_RECORDS = 6;
  static final int KEYS = 7;
  static final int ENCODER = 8;
  static final int ERROR_POLICY = 9;
  static final int RECORD_ERROR_RATE = 10;
  static final int FATAL_ENCODE_RATE = 11;
  static final int FATAL_FINISH_RATE = 12;
  static final int STALL_RATE = 13;
  static final int STALL_TICKS = 14;
  static final int WRITE_TICKS = 15;
  static final int SINK_TRANSIENT_RATE = 16;
  static final int SINK_PERMANENT_RATE = 17;
  static final int TEARDOWN_AT = 18;
  static final int DRAIN_DEADLINE = 19;
  static final int RESTART_RATE = 20;
  static final int FAULT_EPOCHS = 21;
  static final int ROUTER = 22;
  static final int SOURCE_ERROR_RATE = 23;
  static final int ROUTER_ERROR_RATE = 24;
  static final int INTERLEAVE = 25;
  static final int MAX_CHUNK_AGE = 26;
  static final int MAX_INSERT_BYTES = 27;
  static final int MAX_INSERT_ROWS = 28;
  static final int LINGER_TICKS = 29;
  static final int POLL_TICKS = 30;
  static final int GRACE_TICKS = 31;
  static final int RETRY_ATTEMPTS = 32;
  static final int RETRY_BACKOFF_TICKS = 33;
  static final int ON_PERMANENT = 34;
  static final int SINK_TIMEOUT_RATE = 35;
  static final int STUCK_RATE = 36;
  static final int DEAD_LETTER_ERROR_RATE = 37;
  static final int SPLIT_REFUSE_RATE = 38;
  static final int POISON_RATE = 39;
  static final int ROW_PAD = 40;
  static final int RETRY_MAX_ELAPSED_TICKS = 41;
  static final int MUTATION = 42;

  /** The names of the negative controls, {@code none} first. */
  static final List<String> MUTATIONS = List.of(Mutation.names());

  final int index;
  final Knob knob;
  final Kind kind;
  final long min;
  final long max;
  final List<String> choices;

  private KnobSpec(int index, String name, String def, String description, Kind kind, long min,
      long max, List<String> choices) {
    this.index = index;
    this.knob = new Knob(name, def, description);
    this.kind = kind;
    this.min = min;
    this.max = max;
    this.choices = choices;
  }

  static final List<KnobSpec> ALL;

  static {
    List<KnobSpec> k = new ArrayList<>();
    k.add(intKnob(SHARDS, "shards", "4", "number of shards (queues, sink workers)", 1, 64));
    k.add(intKnob(QUEUE_CAPACITY, "queue-capacity", "4",
        "capacity of each shard queue, in chunks (small values put pressure on the stage)", 1,
        1024));
    k.add(intKnob(TARGET_BYTES, "target-bytes", "4096", "chunk target size in bytes", 16,
        64L << 20));
    k.add(new KnobSpec(BUDGET_BYTES, "budget-bytes", "1048576",
        "in-flight budget limit in bytes, or 'none' (the driver stops pulling at the limit)",
        Kind.LONG_OR_NONE, 1, Long.MAX_VALUE, null));
    k.add(intKnob(RECORDS, "records", "1000", "source records in the run, over all sources", 1,
        50_000_000L));
    k.add(intKnob(SOURCES, "sources", "2", "number of sources, each with its own checkpoint", 1,
        64));
    k.add(intKnob(BATCH_RECORDS, "batch-records", "32",
        "largest source batch (batch sizes are drawn from 1 to this)", 1, 1_000_000));
    k.add(intKnob(KEYS, "keys", "16", "routing keys per source (per-key sequence numbers)", 1,
        1_000_000));
    k.add(new KnobSpec(ENCODER, "encoder", "rowbinary",
        "RowEncoderProvider name found through ServiceLoader", Kind.TEXT, 0, 0, null));
    k.add(new KnobSpec(ERROR_POLICY, "error-policy", "skip",
        "what the stage does with a record's DATA encode error: skip or fail", Kind.CHOICE, 0, 0,
        List.of("skip", "fail")));
    k.add(rate(RECORD_ERROR_RATE, "record-error-rate", "probability that encoding a record"
        + " fails with a DATA error"));
    k.add(rate(FATAL_ENCODE_RATE, "fatal-encode-rate", "probability that encoding a record fails"
        + " with a FATAL error"));
    k.add(rate(FATAL_FINISH_RATE, "fatal-finish-rate", "probability that finishChunk fails"
        + " (FATAL) when a chunk seals"));
    k.add(rate(STALL_RATE, "stall-rate", "probability that a sink worker stalls before taking"
        + " a chunk"));
    k.add(intKnob(STALL_TICKS, "stall-ticks", "50", "longest stall, in ticks (drawn from 1 to"
        + " this)", 1, 1_000_000));
    k.add(intKnob(WRITE_TICKS, "write-ticks", "1", "ticks a sink write takes (slow sinks put"
        + " pressure on the queues)", 1, 10_000));
    k.add(rate(SINK_TRANSIENT_RATE, "sink-transient-rate", "probability that a sink write fails"
        + " transiently (the worker retries it)"));
    k.add(rate(SINK_PERMANENT_RATE, "sink-permanent-rate", "probability that a sink write fails"
        + " for good (the chunk is abandoned, its acks fail)"));
    k.add(new KnobSpec(TEARDOWN_AT, "teardown-at", "none",
        "event index at which the process tears down gracefully, or 'none'", Kind.LONG_OR_NONE,
        0, Long.MAX_VALUE, null));
    k.add(new KnobSpec(DRAIN_DEADLINE, "drain-deadline", "none",
        "ticks the shutdown drain may take before abandoning what is left, or 'none'",
        Kind.LONG_OR_NONE, 0, Long.MAX_VALUE, null));
    k.add(rate(RESTART_RATE, "restart-rate", "probability, per driver step, that the process"
        + " crashes and restarts from the last checkpoints"));
    k.add(intKnob(FAULT_EPOCHS, "fault-epochs", "3", "process lifetimes (epochs) with faults;"
        + " after them faults stop and the liveness phase begins", 0, 1_000));
    k.add(new KnobSpec(ROUTER, "router", "key-hash",
        "ShardRouterProvider name found through ServiceLoader (key-hash, round-robin,"
            + " single-shard)", Kind.TEXT, 0, 0, null));
    k.add(rate(SOURCE_ERROR_RATE, "source-error-rate", "probability, per batch, that the source"
        + " throws part-way through pushing it (the driver closes the stage and rethrows)"));
    k.add(rate(ROUTER_ERROR_RATE, "router-error-rate", "probability, per record, that the router"
        + " throws or returns a shard out of range (the stage stops)"));
    k.add(intKnob(INTERLEAVE, "interleave", "1", "sources one pull draws records from: 1 pushes"
        + " one whole batch per pull; more interleaves the open batches of that many sources,"
        + " and batches span pulls", 1, 64));
    k.add(intKnob(MAX_CHUNK_AGE, "max-chunk-age", "1000", "ticks an open chunk's first row may"
        + " wait before the chunk seals at the next sealAged() (a timer calls it every tick)", 1,
        1_000_000_000L));
    k.add(intKnob(MAX_INSERT_BYTES, "max-insert-bytes", "65536", "the sink workers' largest"
        + " merged insert, in bytes (a larger chunk goes alone)", 1, Long.MAX_VALUE));
    k.add(intKnob(MAX_INSERT_ROWS, "max-insert-rows", "100000", "the sink workers' largest"
        + " merged insert, in rows", 1, Integer.MAX_VALUE));
    k.add(intKnob(LINGER_TICKS, "linger-ticks", "2", "how long a worker waits for more chunks"
        + " to merge into an insert", 0, 1_000_000));
    k.add(intKnob(POLL_TICKS, "poll-ticks", "20", "the workers' longest single wait on a queue",
        1, 1_000_000));
    k.add(intKnob(GRACE_TICKS, "grace-ticks", "10", "the workers' shutdown grace, after the"
        + " deadline and again after the interrupt", 0, 1_000_000));
    k.add(intKnob(RETRY_ATTEMPTS, "retry-attempts", "4", "attempts per insert, the first"
        + " included, before a transient failure abandons it", 1, 1_000));
    k.add(intKnob(RETRY_BACKOFF_TICKS, "retry-backoff-ticks", "2", "the first retry's backoff"
        + " (doubling, jitter 0.5)", 1, 1_000_000));
    k.add(new KnobSpec(ON_PERMANENT, "on-permanent", "dead-letter", "what the workers do with"
        + " a permanently failed insert: fail-acks or dead-letter", Kind.CHOICE, 0, 0,
        List.of("fail-acks", "dead-letter")));
    k.add(rate(SINK_TIMEOUT_RATE, "sink-timeout-rate", "probability that a sink write times"
        + " out after the server wrote it (the retry duplicates its rows: at least once)"));
    k.add(rate(STUCK_RATE, "stuck-rate", "probability that a sink write made while the"
        + " workers shut down hangs until the process dies (shutdown gives up on its worker after"
        + " the grace periods)"));
    k.add(rate(DEAD_LETTER_ERROR_RATE, "dead-letter-error-rate", "probability that writing a"
        + " dead letter fails (its chunk fails and replays)"));
    k.add(rate(SPLIT_REFUSE_RATE, "split-refuse-rate", "probability that the writer cannot"
        + " split a failing frame (the part is dead-lettered whole)"));
    k.add(rate(POISON_RATE, "poison-rate", "share of records that are poison pills, bad in"
        + " every lifetime: refused by the encoder under error-policy skip, by the sink (and"
        + " dead-lettered) under on-permanent dead-letter"));
    k.add(intKnob(ROW_PAD, "row-pad", "0", "longest pad column in bytes: rows of varying size",
        0, SimRow.MAX_PAD));
    k.add(new KnobSpec(RETRY_MAX_ELAPSED_TICKS, "retry-max-elapsed-ticks", "none", "the retry"
        + " policy's maxElapsed: the longest time from an insert's first attempt to the start of"
        + " its last, or 'none' for 64 times retry-backoff-ticks per attempt",
        Kind.LONG_OR_NONE, 0, 1_000_000_000L, null));
    k.add(new KnobSpec(MUTATION, "mutation", "none",
        "a deliberately broken variant (negative control): " + String.join(", ", MUTATIONS),
        Kind.CHOICE, 0, 0, MUTATIONS));
    for (int i = 0; i < k.size(); i++) {
      if (k.get(i).index != i) {
        throw new AssertionError("knob " + k.get(i).knob.name() + " out of order");
      }
    }
    ALL = Collections.unmodifiableList(k);
  }

  private static KnobSpec intKnob(int index, String name, String def, String description,
      long min, long max) {
    return new KnobSpec(index, name, def, description, Kind.INT, min, max, null);
  }

  private static KnobSpec rate(int index, String name, String description) {
    return new KnobSpec(index, name, "0", description + " (0 to 1)", Kind.RATE, 0, 0, null);
  }

  static KnobSpec byName(String name) {
    for (KnobSpec s : ALL) {
      if (s.knob.name().equals(name)) {
        return s;
      }
    }
    List<String> names = new ArrayList<>();
    for (KnobSpec s : ALL) {
      names.add(s.knob.name());
    }
    throw new IllegalArgumentException("unknown knob '" + name + "' (known: "
        + String.join(", ", names) + ")");
  }

  /** Checks {@code value} and returns its canonical spelling. */
  String normalize(String value) {
    String name = knob.name();
    if (value == null) {
      throw new IllegalArgumentException("knob " + name + ": no value");
    }
    String v = value.strip();
    switch (kind) {
      case INT: {
        long x = parseLong(v);
        if (x < min || x > max) {
          throw bad(v, "expected an integer from " + min + " to " + max);
        }
        return Long.toString(x);
      }
      case LONG_OR_NONE: {
        if (v.equalsIgnoreCase("none")) {
          return "none";
        }
        long x = parseLong(v);
        if (x < min || x > max) {
          throw bad(v, "expected 'none' or an integer from " + min + " to " + max);
        }
        return Long.toString(x);
      }
      case RATE: {
        double d;
        try {
          d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
          throw bad(v, "expected a probability from 0 to 1");
        }
        if (!(d >= 0 && d <= 1)) {
          throw bad(v, "expected a probability from 0 to 1");
        }
        // Plain decimal (0.0005, not 5.0E-4), exact for every double, so it round-trips.
        return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
      }
      case CHOICE: {
        String lower = v.toLowerCase(Locale.ROOT);
        if (!choices.contains(lower)) {
          throw bad(v, "expected one of " + String.join(", ", choices));
        }
        return lower;
      }
      case TEXT:
      default:
        if (v.isEmpty() || v.chars().anyMatch(Character::isWhitespace)) {
          throw bad(v, "expected a name without spaces");
        }
        return v;
    }
  }

  private long parseLong(String v) {
    try {
      return Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw bad(v, "not an integer");
    }
  }

  private IllegalArgumentException bad(String value, String reason) {
    return new IllegalArgumentException("knob " + knob.name() + "=" + value + ": " + reason);
  }
}
