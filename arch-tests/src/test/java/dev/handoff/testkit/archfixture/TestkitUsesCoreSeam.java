package dev.handoff.testkit.archfixture;

import dev.handoff.core.seam.StageMutation;

/** Violates the seam rule: a module other than core and the simulator reaches the seam. */
public final class TestkitUsesCoreSeam {
  private TestkitUsesCoreSeam() {}

  /** Names a broken variant of the stage. */
  public static StageMutation mutation() {
    return StageMutation.SEND_PAST_PARKED;
  }
}
