package dev.handoff.cli;

import dev.handoff.simulator.Knob;
import dev.handoff.simulator.SimulationOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * One command-line option per simulation knob, generated from {@link SimulationOptions#knobs()}:
 * {@code --<knob>=<value>} with the knob's description and default in the help. The options carry
 * no picocli default, so a command can tell the knobs a user gave from the ones they did not.
 */
final class KnobOptions {

  private KnobOptions() {}

  /**
   * Adds the knob options to {@code simulate} and {@code sweep}, whose unset knobs the swarm draws
   * from the seed.
   */
  public static final class Swarm implements IModelTransformer {
    /** Creates the transformer; picocli calls this. */
    public Swarm() {}

    /** Returns {@code spec} with one option per knob. */
    @Override
    public CommandSpec transform(CommandSpec spec) {
      addTo(spec, "default %s; the swarm draws it from the seed unless given");
      return spec;
    }
  }

  /** Adds the knob options to {@code replay}, whose unset knobs take their defaults. */
  public static final class Defaults implements IModelTransformer {
    /** Creates the transformer; picocli calls this. */
    public Defaults() {}

    /** Returns {@code spec} with one option per knob. */
    @Override
    public CommandSpec transform(CommandSpec spec) {
      addTo(spec, "default %s");
      return spec;
    }
  }

  /** Adds {@code --<knob>} for every knob; {@code defaultNote} formats the knob's default. */
  static void addTo(CommandSpec spec, String defaultNote) {
    ArgGroupSpec.Builder group = ArgGroupSpec.builder()
        .heading("%nKnobs (--<knob>=<value>; the replay command lists them all):%n")
        .exclusive(false)
        .multiplicity("0..1");
    for (Knob k : SimulationOptions.knobs()) {
      String name = "--" + k.name();
      if (spec.optionsMap().containsKey(name)) {
        throw new IllegalStateException("knob " + k.name() + " clashes with the option " + name
            + " of " + spec.name());
      }
      group.addArg(OptionSpec.builder(name)
          .type(String.class)
          .arity("1")
          .paramLabel(label(k))
          .description(k.description() + " (" + String.format(defaultNote, k.defaultValue())
              + ")")
          .build());
    }
    spec.addArgGroup(group.build());
  }

  /** Returns the knobs given on the command line of {@code spec}, in knob order. */
  static Map<String, String> given(CommandSpec spec) {
    ParseResult parsed = spec.commandLine().getParseResult();
    Map<String, String> knobs = new LinkedHashMap<>();
    for (Knob k : SimulationOptions.knobs()) {
      OptionSpec option = parsed.matchedOption("--" + k.name());
      if (option != null) {
        knobs.put(k.name(), option.getValue());
      }
    }
    return knobs;
  }

  /**
   * Applies the given knobs over {@code base}; a bad knob or value is a usage error that names
   * the knob, the value and why.
   */
  static SimulationOptions apply(CommandSpec spec, SimulationOptions base,
      Map<String, String> knobs) {
    SimulationOptions options = base;
    for (Map.Entry<String, String> e : knobs.entrySet()) {
      try {
        options = options.with(e.getKey(), e.getValue());
      } catch (IllegalArgumentException bad) {
        throw usage(spec, e.getKey(), e.getValue(), bad);
      }
    }
    return options;
  }

  /** Returns the usage error for a knob value the simulator rejected. */
  static ParameterException usage(CommandSpec spec, String knob, String value,
      IllegalArgumentException bad) {
    String message = bad.getMessage() == null ? "bad value" : bad.getMessage();
    if (!message.contains(knob) || !message.contains(value)) {
      message = "--" + knob + "=" + value + ": " + message;
    }
    return new ParameterException(spec.commandLine(), message, bad);
  }

  /** Returns {@code <last word of the name>}, or {@code <value>} when that word is too short. */
  private static String label(Knob k) {
    String last = k.name().substring(k.name().lastIndexOf('-') + 1);
    return "<" + (last.length() < 3 ? "value" : last) + ">";
  }
}
