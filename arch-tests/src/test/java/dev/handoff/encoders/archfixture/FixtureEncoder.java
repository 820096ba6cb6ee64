package dev.handoff.encoders.archfixture;

/** Test fixture: stands for any class of a future encoders module. */
public final class FixtureEncoder {}
