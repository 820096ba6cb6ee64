package dev.handoff.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Knobs, their validation, swarm draws and the replay command. */
final class SimulationOptionsTest {

  @Test
  void knobs_comeInAFixedOrderWithKebabCaseNamesAndEveryDefaultIsValid() {
    List<Knob> knobs = SimulationOptions.knobs();

    assertThat(knobs).extracting(Knob::name).startsWith("shards", "queue-capacity",
        "target-bytes", "budget-bytes", "records", "sources").contains("encoder",
        "error-policy", "record-error-rate", "fatal-encode-rate", "fatal-finish-rate",
        "stall-rate", "stall-ticks", "sink-transient-rate", "sink-permanent-rate", "teardown-at",
        "drain-deadline", "restart-rate", "mutation").endsWith("mutation");
    assertThat(knobs).allMatch(k -> k.name().matches("[a-z]+(-[a-z]+)*"));
    assertThat(SimulationOptions.defaults(3).describe()).containsOnlyKeys(
        knobs.stream().map(Knob::name).toArray(String[]::new));
    for (Knob k : knobs) {
      assertThat(SimulationOptions.defaults(1).with(k.name(), k.defaultValue()))
          .isEqualTo(SimulationOptions.defaults(1));
    }
  }

  @Test
  void parse_rejectsAnUnknownKnobOrABadValueNamingTheKnobTheValueAndTheReason() {
    assertThatThrownBy(() -> SimulationOptions.parse(1, Map.of("shard", "2")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown knob 'shard'").hasMessageContaining("shards");
    assertThatThrownBy(() -> SimulationOptions.parse(1, Map.of("shards", "0")))
        .hasMessageContaining("shards=0").hasMessageContaining("from 1 to");
    assertThatThrownBy(() -> SimulationOptions.defaults(1).with("stall-rate", "1.5"))
        .hasMessageContaining("stall-rate=1.5").hasMessageContaining("probability");
    assertThatThrownBy(() -> SimulationOptions.defaults(1).with("error-policy", "retry"))
        .hasMessageContaining("error-policy=retry").hasMessageContaining("skip, fail");
    assertThatThrownBy(() -> SimulationOptions.defaults(1).with("mutation", "nope"))
        .hasMessageContaining("mutation=nope").hasMessageContaining("send-past-parked");
    assertThatThrownBy(() -> SimulationOptions.defaults(1).with("records", "many"))
        .hasMessageContaining("records=many").hasMessageContaining("not an integer");
  }

  @Test
  void replayCommand_carriesTheSeedAndEveryKnobSoParsingItBackGivesEqualOptions() {
    SimulationOptions o = SimulationOptions.swarm(42).with("mutation", "drop-record");
    String cmd = o.replayCommand();

    assertThat(cmd).startsWith("./handoff replay --seed 42 --shards=");
    Map<String, String> knobs = new LinkedHashMap<>();
    for (String part : cmd.split(" ")) {
      if (part.startsWith("--") && part.contains("=")) {
        knobs.put(part.substring(2, part.indexOf('=')), part.substring(part.indexOf('=') + 1));
      }
    }
    assertThat(knobs.keySet()).containsExactlyElementsOf(o.describe().keySet());
    assertThat(SimulationOptions.parse(42, knobs)).isEqualTo(o);
  }

  @Test
  void swarm_isAFunctionOfTheSeedAndVariesTheWholeConfiguration() {
    assertThat(SimulationOptions.swarm(7)).isEqualTo(SimulationOptions.swarm(7));
    Set<Map<String, String>> configs = java.util.stream.LongStream.rangeClosed(1, 50)
        .mapToObj(s -> SimulationOptions.swarm(s).describe()).collect(Collectors.toSet());
    assertThat(configs).hasSize(50);
    for (String knob : List.of("shards", "queue-capacity", "target-bytes", "budget-bytes",
        "records", "sources", "stall-rate", "sink-permanent-rate", "restart-rate")) {
      assertThat(configs.stream().map(c -> c.get(knob)).distinct().count())
          .as("values of %s over 50 seeds", knob).isGreaterThan(1);
    }
    assertThat(configs).allMatch(c -> c.get("mutation").equals("none"));
  }
}
