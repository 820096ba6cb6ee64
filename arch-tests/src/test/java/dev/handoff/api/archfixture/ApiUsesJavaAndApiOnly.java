package dev.handoff.api.archfixture;

import dev.handoff.api.HandoffClock;
import dev.handoff.api.FlowControl;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Test fixture: an API class that uses only the JDK, primitives, arrays and the API (allowed). */
public final class ApiUsesJavaAndApiOnly {
  int[] ints = new int[1];
  FlowControl[] flows = FlowControl.values();
  Map<String, List<Duration>> durations = Map.of();

  long f(HandoffClock clock, byte b, char c, double d) throws InterruptedException {
    clock.sleep(Duration.ZERO);
    return clock.nanoTime() + b + c + (long) d;
  }
}
