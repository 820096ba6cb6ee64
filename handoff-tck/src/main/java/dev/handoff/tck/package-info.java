/**
 * Abstract JUnit 5 contract suites, one per SPI of handoff. A test class extends a suite, supplies
 * the implementation under test and a few samples through the suite's abstract methods, and
 * inherits the suite's {@code @Test} methods; each assertion says which part of the contract a
 * failure breaks.
 *
 * <p>The suites use only the API ({@code dev.handoff.api}), JUnit's API and AssertJ, so an
 * implementation is proven without handoff's core. Every test method is public, so JUnit runs the
 * suites on the module path without this package being opened.
 */
package dev.handoff.tck;
