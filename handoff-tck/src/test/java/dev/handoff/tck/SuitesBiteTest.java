package dev.handoff.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.handoff.api.Frame;
import dev.handoff.api.row.RowAccessor;
import dev.handoff.api.row.ValueKind;
import dev.handoff.api.spi.Insert;
import dev.handoff.api.spi.InsertWriter;
import dev.handoff.api.spi.RowEncoder;
import dev.handoff.api.spi.ShardRouter;
import dev.handoff.tck.Fixtures.ArrayAccessor;
import dev.handoff.tck.Fixtures.EncoderBug;
import dev.handoff.tck.Fixtures.HeldLinesEncoder;
import dev.handoff.tck.Fixtures.LowBitRouter;
import dev.handoff.tck.Fixtures.MemoryWriter;
import dev.handoff.tck.Fixtures.ModuloRouter;
import dev.handoff.tck.Fixtures.OutOfRangeRouter;
import dev.handoff.tck.Fixtures.RandomRouter;
import dev.handoff.tck.Fixtures.WriterBug;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Shows that the suites bite: each runs, through the JUnit Platform, on a correct implementation
 * (every check passes) and on implementations broken in one way each, and exactly the checks of
 * the broken part of the contract fail. The suites are nested classes named {@code *Suite}, so
 * Surefire does not run them on their own.
 */
final class SuitesBiteTest {
  /** The example of docs/vendors.md (package-private in its own package, so named here). */
  private static final String EXAMPLE = "dev.handoff.tck.example.TextLineEncoderContractTest";

  // ------------------------------------------------------------------------------ encoders

  @Test
  void rowEncoderContract_passesTheExampleAndAColumnarEncoder() {
    assertOutcome(EXAMPLE, RowEncoderContract.class, Set.of(), Set.of());
    assertOutcome(HeldLinesSuite.class, RowEncoderContract.class, Set.of(), Set.of());
  }

  @Test
  void rowEncoderContract_catchesBytesOfARejectedRowLeftInTheEncoder() {
    assertOutcome(KeepsRejectedBytesSuite.class, RowEncoderContract.class,
        Set.of("aDataErrorLeavesNoTrace"), Set.of());
  }

  @Test
  void rowEncoderContract_catchesBufferedBytesOffByOne() {
    assertOutcome(BufferedBytesOffByOneSuite.class, RowEncoderContract.class,
        Set.of("bufferedBytesIsExactAfterEveryRow"), Set.of());
  }

  @Test
  void rowEncoderContract_catchesAColumnarEncoderDeclaredAsARowFormat() {
    assertOutcome(MisdeclaredSuite.class, RowEncoderContract.class,
        Set.of("rowOrColumnarAsDeclared"), Set.of());
  }

  static class HeldLinesSuite extends RowEncoderContract<Object[]> {
    EncoderBug bug() {
      return EncoderBug.NONE;
    }

    @Override
    protected RowEncoder<Object[]> newEncoder() {
      return new HeldLinesEncoder(bug());
    }

    @Override
    protected boolean rowFormat() {
      return false;
    }

    @Override
    protected List<Object[]> goodRows() {
      return List.of(new Object[] {1, "one"}, new Object[] {2, ""}, new Object[] {3, "three"});
    }

    @Override
    protected List<BadRow<Object[]>> badRows() {
      return List.of(BadRow.of(new Object[] {4, null}, "name", "null", "no null"));
    }
  }

  static final class KeepsRejectedBytesSuite extends HeldLinesSuite {
    @Override
    EncoderBug bug() {
      return EncoderBug.KEEPS_REJECTED_BYTES;
    }
  }

  static final class BufferedBytesOffByOneSuite extends HeldLinesSuite {
    @Override
    EncoderBug bug() {
      return EncoderBug.BUFFERED_BYTES_OFF_BY_ONE;
    }
  }

  static final class MisdeclaredSuite extends HeldLinesSuite {
    @Override
    protected boolean rowFormat() {
      return true;
    }
  }

  // ------------------------------------------------------------------------------- routers

  @Test
  void shardRouterContract_passesACorrectRouter() {
    assertOutcome(ModuloSuite.class, ShardRouterContract.class, Set.of(), Set.of());
  }

  @Test
  void shardRouterContract_catchesARouteOfNumShards() {
    assertOutcome(OutOfRangeSuite.class, ShardRouterContract.class,
        Set.of("everyRouteIsAShardInRange", "pinnedRoutesAreStable", "twoInstancesRouteAlike",
            "spreadsKeysEvenly"), Set.of());
  }

  @Test
  void shardRouterContract_catchesARouterThatIsNotDeterministic() {
    assertOutcome(RandomSuite.class, ShardRouterContract.class,
        Set.of("pinnedRoutesAreStable", "twoInstancesRouteAlike"), Set.of());
  }

  @Test
  void shardRouterContract_catchesARouterThatDoesNotSpread_unlessItSaysSo() {
    assertOutcome(LowBitSuite.class, ShardRouterContract.class, Set.of("spreadsKeysEvenly"),
        Set.of());
    assertOutcome(LowBitNoSpreadSuite.class, ShardRouterContract.class, Set.of(),
        Set.of("spreadsKeysEvenly"));
  }

  static class ModuloSuite extends ShardRouterContract {
    @Override
    protected ShardRouter newRouter() {
      return new ModuloRouter();
    }

    @Override
    protected List<PinnedRoute> pinnedRoutes() {
      return List.of(new PinnedRoute(42, 0, 8, 2), new PinnedRoute(-1, 0, 10, 5),
          new PinnedRoute(7, 0, 1, 0));
    }
  }

  static final class OutOfRangeSuite extends ModuloSuite {
    @Override
    protected ShardRouter newRouter() {
      return new OutOfRangeRouter();
    }
  }

  static final class RandomSuite extends ModuloSuite {
    @Override
    protected ShardRouter newRouter() {
      return new RandomRouter();
    }

    @Override
    protected List<PinnedRoute> pinnedRoutes() {
      // Enough routes that a random router cannot hit them all by chance (1 in 1000^8).
      List<PinnedRoute> routes = new ArrayList<>();
      for (long key = 0; key < 8; key++) {
        routes.add(new PinnedRoute(key, 0, 1000, (int) key));
      }
      return routes;
    }
  }

  static class LowBitSuite extends ShardRouterContract {
    @Override
    protected ShardRouter newRouter() {
      return new LowBitRouter();
    }

    @Override
    protected List<PinnedRoute> pinnedRoutes() {
      return List.of(new PinnedRoute(3, 0, 8, 1), new PinnedRoute(4, 0, 8, 0));
    }
  }

  static final class LowBitNoSpreadSuite extends LowBitSuite {
    @Override
    protected boolean spreads() {
      return false;
    }
  }

  // ----------------------------------------------------------------------------- accessors

  @Test
  void rowAccessorContract_passesACorrectAccessor_andCatchesOneBlindToNulls() {
    assertOutcome(ArrayAccessorSuite.class, RowAccessorContract.class, Set.of(), Set.of());
    assertOutcome(NullBlindSuite.class, RowAccessorContract.class, Set.of("nullsReadAsNull"),
        Set.of());
  }

  @Test
  void rowAccessorContract_catchesBytesWrittenShortOfGetBytes() {
    assertOutcome(BytesShortSuite.class, RowAccessorContract.class,
        Set.of("everyFieldReadsAsExpected", "readsDoNotDependOnOrder",
            "oneAccessorServesSeveralThreads"), Set.of());
  }

  static class ArrayAccessorSuite extends RowAccessorContract<Object[]> {
    boolean nullBlind() {
      return false;
    }

    boolean bytesShort() {
      return false;
    }

    @Override
    protected RowAccessor<Object[]> accessor() {
      return new ArrayAccessor(nullBlind(), bytesShort());
    }

    @Override
    protected List<Sample<Object[]>> samples() {
      return List.of(
          new Sample<>("scalars", new Object[] {7L, "x", null, BigInteger.TEN,
              new BigDecimal("1.50")}, List.of(Expected.ofLong(7), Expected.ofText("x"),
              Expected.ofNull(), Expected.ofBigInteger(BigInteger.TEN),
              Expected.ofBigDecimal(new BigDecimal("1.50")))),
          new Sample<>("nested", new Object[] {new Object[] {1L, null, new Object[] {"a"}},
              ValueKind.LONG}, List.of(Expected.sequence(Expected.ofLong(1), Expected.ofNull(),
              Expected.sequence(Expected.ofText("a"))),
              Expected.ofObject(ValueKind.OTHER, ValueKind.LONG))),
          new Sample<>("bytes", new Object[] {new byte[] {1, 2, 3}, new byte[0]},
              List.of(Expected.ofBytes(new byte[] {1, 2, 3}), Expected.ofBytes(new byte[0]))));
    }
  }

  static final class BytesShortSuite extends ArrayAccessorSuite {
    @Override
    boolean bytesShort() {
      return true;
    }
  }

  static final class NullBlindSuite extends ArrayAccessorSuite {
    @Override
    boolean nullBlind() {
      return true;
    }
  }

  // ------------------------------------------------------------------------------- writers

  @Test
  void insertWriterContract_passesACorrectWriter() {
    assertOutcome(MemoryWriterSuite.class, InsertWriterContract.class, Set.of(), Set.of());
  }

  @Test
  void insertWriterContract_catchesAnOutageClassifiedAsPermanent() {
    assertOutcome(OutagePermanentSuite.class, InsertWriterContract.class,
        Set.of("anUnreachableSinkIsTransient"), Set.of());
  }

  @Test
  void insertWriterContract_catchesAWriteAfterClose() {
    assertOutcome(WritesAfterCloseSuite.class, InsertWriterContract.class,
        Set.of("aWriteAfterCloseFailsClearly"), Set.of());
  }

  @Test
  void insertWriterContract_catchesASplitThatLosesARow() {
    assertOutcome(SplitDropsSuite.class, InsertWriterContract.class,
        Set.of("splitKeepsEveryRowInOrder", "splitAgainKeepsEveryRowOrGivesNothing"), Set.of());
  }

  static class MemoryWriterSuite extends InsertWriterContract {
    final List<String> sink = new ArrayList<>();

    WriterBug bug() {
      return WriterBug.NONE;
    }

    @Override
    protected InsertWriter newWriter() {
      return new MemoryWriter(sink, true, bug());
    }

    @Override
    protected InsertWriter unreachableWriter() {
      return new MemoryWriter(sink, false, bug());
    }

    @Override
    protected String unreachableCause() {
      return "unreachable";
    }

    @Override
    protected Insert goodInsert() {
      return insertOf(3, Fixtures.textFrame(3));
    }

    @Override
    protected Insert rejectedInsert() {
      return insertOf(2, Fixtures.textFrame(1, new Object[] {9, "bad"}));
    }

    @Override
    protected String rejectionCause() {
      return "rejected the line 9\tbad";
    }

    @Override
    protected Frame frameOf(int rows) {
      return Fixtures.textFrame(rows);
    }

    @Override
    protected List<?> rowsOf(Frame frame) {
      return MemoryWriter.lines(new String(frame.toByteArray(), StandardCharsets.UTF_8));
    }
  }

  static final class OutagePermanentSuite extends MemoryWriterSuite {
    @Override
    WriterBug bug() {
      return WriterBug.OUTAGE_IS_PERMANENT;
    }
  }

  static final class WritesAfterCloseSuite extends MemoryWriterSuite {
    @Override
    WriterBug bug() {
      return WriterBug.WRITES_AFTER_CLOSE;
    }
  }

  static final class SplitDropsSuite extends MemoryWriterSuite {
    @Override
    WriterBug bug() {
      return WriterBug.SPLIT_DROPS_A_ROW;
    }
  }

  // ------------------------------------------------------------------------------- helpers

  /**
   * Runs {@code suite} through the Jupiter engine and checks that exactly the checks {@code
   * failing} of {@code contract} failed, exactly {@code skipped} were skipped by an assumption
   * (JUnit reports them as aborted), and every other check of the contract passed.
   */
  private static void assertOutcome(Class<?> suite, Class<?> contract, Set<String> failing,
      Set<String> skipped) {
    assertOutcome(suite.getName(), contract, failing, skipped);
  }

  private static void assertOutcome(String suite, Class<?> contract, Set<String> failing,
      Set<String> skipped) {
    Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(suite))
        .execute().testEvents();
    Set<String> checks = new TreeSet<>();
    for (Method m : contract.getDeclaredMethods()) {
      if (m.isAnnotationPresent(Test.class)) {
        checks.add(m.getName());
      }
    }
    Set<String> passing = new TreeSet<>(checks);
    passing.removeAll(failing);
    passing.removeAll(skipped);

    assertThat(names(events.failed())).as("checks of %s that failed on %s",
        contract.getSimpleName(), suite).isEqualTo(new TreeSet<>(failing));
    assertThat(names(events.aborted())).as("checks of %s aborted (skipped by an assumption) on %s",
        contract.getSimpleName(), suite).isEqualTo(new TreeSet<>(skipped));
    assertThat(names(events.succeeded())).as("checks of %s that passed on %s",
        contract.getSimpleName(), suite).isEqualTo(passing);
  }

  private static Set<String> names(Events events) {
    Set<String> names = new TreeSet<>();
    for (Event e : events.list()) {
      e.getTestDescriptor().getSource().filter(MethodSource.class::isInstance)
          .map(s -> ((MethodSource) s).getMethodName()).ifPresent(names::add);
    }
    return names;
  }
}
