package dev.handoff.core.archfixture;

import dev.handoff.encoders.archfixture.FixtureEncoder;

/** Test fixture: a core class that depends on an encoders class (forbidden). */
public final class CoreUsesEncoders {
  FixtureEncoder encoder;
}
