package dev.handoff.simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The complete configuration of one simulation run: its seed and a value for every {@link Knob}.
 * Immutable; equal options give equal runs (the same event log, the same report).
 *
 * <p>{@link #defaults(long)} sets every knob to its default, {@link #swarm(long)} draws the whole
 * configuration from the seed (swarm testing: each seed explores a different mix of shards,
 * capacities, sizes and fault rates), {@link #parse} and {@link #with} override knobs by name.
 */
public final class SimulationOptions {

  private final long seed;
  private final String[] values;

  private SimulationOptions(long seed, String[] values) {
    this.seed = seed;
    this.values = values;
  }

  /** Returns every knob, in a fixed order (the order of reports and replay commands). */
  public static List<Knob> knobs() {
    List<Knob> knobs = new ArrayList<>(KnobSpec.ALL.size());
    for (KnobSpec s : KnobSpec.ALL) {
      knobs.add(s.knob);
    }
    return List.copyOf(knobs);
  }

  /** Returns options with every knob at its default. */
  public static SimulationOptions defaults(long seed) {
    String[] v = new String[KnobSpec.ALL.size()];
    for (KnobSpec s : KnobSpec.ALL) {
      v[s.index] = s.knob.defaultValue();
    }
    return new SimulationOptions(seed, v);
  }

  /**
   * Returns options whose whole configuration is drawn from {@code seed}: shards, queue
   * capacities, target bytes, budget limit, record and source counts, which faults are on and
   * their rates, teardown and drain deadline. The mutation stays {@code none}.
   */
  public static SimulationOptions swarm(long seed) {
    return new SimulationOptions(seed, Swarm.draw(seed, defaults(seed).values.clone()));
  }

  /**
   * Returns the defaults with {@code knobs} applied.
   *
   * @throws IllegalArgumentException for an unknown knob or a bad value, naming the knob, the
   *     value and the reason
   */
  public static SimulationOptions parse(long seed, Map<String, String> knobs) {
    SimulationOptions o = defaults(seed);
    for (Map.Entry<String, String> e : knobs.entrySet()) {
      o = o.with(e.getKey(), e.getValue());
    }
    return o;
  }

  /**
   * Returns these options with one knob overridden.
   *
   * @throws IllegalArgumentException for an unknown knob or a bad value
   */
  public SimulationOptions with(String knob, String value) {
    KnobSpec s = KnobSpec.byName(Objects.requireNonNull(knob, "knob"));
    String[] v = values.clone();
    v[s.index] = s.normalize(value);
    return new SimulationOptions(seed, v);
  }

  /** Returns the seed. */
  public long seed() {
    return seed;
  }

  /** Returns every knob and its value, in knob order. */
  public Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    for (KnobSpec s : KnobSpec.ALL) {
      m.put(s.knob.name(), values[s.index]);
    }
    return m;
  }

  /** Returns the command that replays exactly this run: the seed and every knob. */
  public String replayCommand() {
    StringBuilder sb = new StringBuilder("./handoff replay --seed ").append(seed);
    for (KnobSpec s : KnobSpec.ALL) {
      sb.append(" --").append(s.knob.name()).append('=').append(values[s.index]);
    }
    return sb.toString();
  }

  /* Typed access for the engine. */

  String value(int knob) {
    return values[knob];
  }

  int intValue(int knob) {
    return (int) Long.parseLong(values[knob]);
  }

  long longValue(int knob) {
    return Long.parseLong(values[knob]);
  }

  /** Returns the knob's value, or {@code none} when it is 'none'. */
  long longOrNone(int knob, long none) {
    String v = values[knob];
    return v.equals("none") ? none : Long.parseLong(v);
  }

  double rate(int knob) {
    return Double.parseDouble(values[knob]);
  }

  Mutation mutation() {
    return Mutation.of(values[KnobSpec.MUTATION]);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SimulationOptions other && other.seed == seed
        && Arrays.equals(other.values, values);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(seed) * 31 + Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return "seed " + seed + " " + describe();
  }
}
