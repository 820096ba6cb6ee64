/**
 * The handoff TCK: abstract JUnit 5 contract suites for the SPIs of {@code dev.handoff.api}. A
 * vendor extends a suite once per implementation in its own tests, supplies the implementation
 * and a few samples, and inherits every check:
 *
 * <ul>
 *   <li>{@link dev.handoff.tck.RowEncoderContract} for a {@link dev.handoff.api.spi.RowEncoder};
 *   <li>{@link dev.handoff.tck.InsertWriterContract} for an {@link
 *       dev.handoff.api.spi.InsertWriter};
 *   <li>{@link dev.handoff.tck.ShardRouterContract} for a {@link
 *       dev.handoff.api.spi.ShardRouter};
 *   <li>{@link dev.handoff.tck.RowAccessorContract} for a {@link
 *       dev.handoff.api.row.RowAccessor}.
 * </ul>
 *
 * <p>It requires the API and JUnit's API transitively (every suite is an API user and a JUnit
 * test class) and AssertJ for its own assertions; nothing of handoff's core or encoders.
 */
module dev.handoff.tck {
  requires transitive dev.handoff.api;
  requires transitive org.junit.jupiter.api;
  requires org.assertj.core;

  exports dev.handoff.tck;
}
