package dev.handoff.simulator;

import java.util.Objects;

/**
 * One knob of a simulation's configuration: its name (the command-line flag without {@code --},
 * and the key in reports), its default, and what it controls.
 *
 * @param name the knob's name, in kebab case (for example {@code queue-capacity})
 * @param defaultValue the value a run takes when neither the options nor the swarm set it
 * @param description one line for the command line's help
 */
public record Knob(String name, String defaultValue, String description) {

  /** Checks that no component is null. */
  public Knob {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(defaultValue, "defaultValue");
    Objects.requireNonNull(description, "description");
  }
}
