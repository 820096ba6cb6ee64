package dev.handoff.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.handoff.api.Ack;
import dev.handoff.api.archfixture.ApiLeaksCoreInternal;
import dev.handoff.api.archfixture.ApiReadsClock;
import dev.handoff.api.archfixture.ApiUsesCore;
import dev.handoff.api.archfixture.ApiUsesCoreInternal;
import dev.handoff.api.archfixture.ApiUsesJavaAndApiOnly;
import dev.handoff.api.archfixture.ApiUsesLibrary;
import dev.handoff.api.archfixture.ApiUsesTestkit;
import dev.handoff.core.ArchFixtureSignatures;
import dev.handoff.core.SinkHandoff;
import dev.handoff.core.ack.ArchFixtureAckLeak;
import dev.handoff.core.archfixture.ClockAndRandomReaders;
import dev.handoff.clickhouse.http.archfixture.HttpUsesCore;
import dev.handoff.core.archfixture.CoreUsesCodec;
import dev.handoff.core.archfixture.CoreUsesEncoders;
import dev.handoff.core.archfixture.CoreUsesMicrometer;
import dev.handoff.core.archfixture.CoreUsesSimulator;
import dev.handoff.core.archfixture.DeterministicTimeAndRandomness;
import dev.handoff.core.internal.WarnLimiter;
import dev.handoff.simulator.archfixture.SimulatorReadsClock;
import dev.handoff.simulator.archfixture.SimulatorUnseededRandom;
import dev.handoff.tck.RowEncoderContract;
import dev.handoff.tck.archfixture.TckUsesApiJUnitAndAssertJ;
import dev.handoff.tck.archfixture.TckUsesCore;
import dev.handoff.testkit.archfixture.TestkitClockReader;
import dev.handoff.testkit.archfixture.TestkitUnseededRandom;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves that each rule of {@link ArchitectureTest} can fail: it is evaluated against fixture
 * classes (test classes of this module, in the packages the rules are about) that break it, and
 * against fixtures that do what is allowed, which it must not flag.
 */
final class ArchitectureRulesBiteTest {

  /**
   * Every fixture and the few real classes the tests need, imported once (an import resolves the
   * JDK types the classes use, which takes a while); each test picks its classes from it.
   */
  private static final JavaClasses ALL =
      new ClassFileImporter()
          .importClasses(
              Stream.of(
                      ClockAndRandomReaders.CLOCK_READERS.stream(),
                      ClockAndRandomReaders.UNSEEDED_RANDOMNESS.stream(),
                      ArchFixtureSignatures.LEAKS.stream(),
                      ArchFixtureSignatures.HIDDEN.stream(),
                      apiDependencyViolators(),
                      coreToPluginViolators(),
                      testkitViolators(),
                      Stream.of(
                          ApiUsesJavaAndApiOnly.class,
                          ApiReadsClock.class,
                          ApiLeaksCoreInternal.class,
                          ArchFixtureAckLeak.class,
                          CoreUsesMicrometer.class,
                          CoreUsesCodec.class,
                          HttpUsesCore.class,
                          httpBlockCodec(),
                          DeterministicTimeAndRandomness.class,
                          WarnLimiter.class,
                          SinkHandoff.class,
                          SimulatorReadsClock.class,
                          SimulatorUnseededRandom.class,
                          TckUsesCore.class,
                          TckUsesApiJUnitAndAssertJ.class,
                          RowEncoderContract.class,
                          simulatorClass("WallClock"),
                          simulatorClass("Rng"),
                          systemClock()))
                  .flatMap(s -> s)
                  .collect(Collectors.toList()));

  /** The classes of {@link #ALL} that are one of {@code classes}. */
  private static JavaClasses load(Class<?>... classes) {
    return load(Arrays.asList(classes));
  }

  private static JavaClasses load(List<Class<?>> classes) {
    Set<String> names = classes.stream().map(Class::getName).collect(Collectors.toSet());
    JavaClasses picked =
        ALL.that(DescribedPredicate.describe("one of " + names, c -> names.contains(c.getName())));
    assertThat(picked.size()).as("fixtures %s imported", names).isEqualTo(names.size());
    return picked;
  }

  private static Class<?> simulatorClass(String simpleName) {
    try {
      return Class.forName("dev.handoff.simulator." + simpleName);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  private static Class<?> httpBlockCodec() {
    try {
      return Class.forName("dev.handoff.clickhouse.http.internal.BlockCodec");
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  private static Class<?> systemClock() {
    try {
      return Class.forName(ArchitectureTest.SYSTEM_CLOCK);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * {@code evaluate} throws when the rule's subject matches none of {@code classes}
   * (failOnEmptyShould), so a violation found here is a real one, not an empty subject.
   */
  private static void assertFails(ArchRule rule, JavaClasses classes) {
    EvaluationResult result = rule.evaluate(classes);
    assertThat(result.hasViolation())
        .as("rule '%s' on %s must fail", rule.getDescription(), classes)
        .isTrue();
  }

  private static void assertPasses(ArchRule rule, JavaClasses classes) {
    EvaluationResult result = rule.evaluate(classes);
    assertThat(result.getFailureReport().getDetails())
        .as("rule '%s' on %s", rule.getDescription(), classes)
        .isEmpty();
  }

  // --- api_depends_only_on_java_and_itself --------------------------------------------------

  @ParameterizedTest
  @MethodSource("apiDependencyViolators")
  void apiRule_failsWhenTheApiDependsOnAnythingButJavaAndItself(Class<?> violator) {
    assertFails(ArchitectureTest.api_depends_only_on_java_and_itself, load(violator));
  }

  static Stream<Class<?>> apiDependencyViolators() {
    return Stream.of(
        ApiUsesCore.class, ApiUsesTestkit.class, ApiUsesLibrary.class, ApiUsesCoreInternal.class);
  }

  @Test
  void apiRule_allowsJavaPrimitivesArraysAndTheApi() {
    assertPasses(
        ArchitectureTest.api_depends_only_on_java_and_itself, load(ApiUsesJavaAndApiOnly.class));
  }

  // --- core_never_depends_on_encoders_or_simulator ------------------------------------------

  @ParameterizedTest
  @MethodSource("coreToPluginViolators")
  void coreRule_failsWhenCoreDependsOnEncodersOrSimulator(Class<?> violator) {
    assertFails(ArchitectureTest.core_never_depends_on_encoders_or_simulator, load(violator));
  }

  static Stream<Class<?>> coreToPluginViolators() {
    return Stream.of(CoreUsesEncoders.class, CoreUsesSimulator.class);
  }

  @Test
  void coreRule_holdsEvenWhenTheEncoderClassIsNotOnTheClassPathOfTheImport() {
    // Only the core class is imported: the target is known by name alone, as it would be if the
    // encoders module were not a dependency of this module.
    JavaClasses coreOnly = load(CoreUsesEncoders.class);
    assertThat(coreOnly.contain("dev.handoff.encoders.archfixture.FixtureEncoder")).isFalse();
    assertFails(ArchitectureTest.core_never_depends_on_encoders_or_simulator, coreOnly);
  }

  // --- core_never_depends_on_micrometer -------------------------------------------------------

  @Test
  void micrometerRule_failsWhenCoreUsesMicrometer() {
    assertFails(ArchitectureTest.core_never_depends_on_micrometer, load(CoreUsesMicrometer.class));
  }

  @Test
  void micrometerRule_allowsCoreWithoutMicrometer() {
    assertPasses(ArchitectureTest.core_never_depends_on_micrometer, load(SinkHandoff.class));
  }

  // --- the codecs: the HTTP writer's only ---------------------------------------------------

  @Test
  void codecRule_failsWhenAnotherModuleUsesACodec() {
    assertFails(ArchitectureTest.only_the_http_writer_uses_the_codecs, load(CoreUsesCodec.class));
  }

  @Test
  void codecRules_allowTheHttpWritersCodec() {
    JavaClasses codec = load(httpBlockCodec());
    assertPasses(ArchitectureTest.http_writer_depends_only_on_api_types_jdk_and_codecs, codec);
    assertPasses(ArchitectureTest.only_the_http_writer_uses_the_codecs, load(SinkHandoff.class));
  }

  @Test
  void httpRule_failsWhenTheWriterReachesIntoCore() {
    assertFails(ArchitectureTest.http_writer_depends_only_on_api_types_jdk_and_codecs,
        load(HttpUsesCore.class));
  }

  // --- core_internal_is_used_only_by_core ---------------------------------------------------

  @Test
  void internalRule_failsWhenTheApiUsesCoreInternal() {
    assertFails(
        ArchitectureTest.core_internal_is_used_only_by_core,
        new ClassFileImporter().importClasses(WarnLimiter.class, ApiUsesCoreInternal.class));
  }

  @Test
  void internalRule_allowsCoreToUseItsInternals() {
    // Dependents are computed over one whole import, so this one is imported on its own.
    assertPasses(
        ArchitectureTest.core_internal_is_used_only_by_core,
        new ClassFileImporter().importClasses(WarnLimiter.class, SinkHandoff.class));
  }

  // --- public_api_exposes_no_core_internal_type ---------------------------------------------

  static Stream<Class<?>> signatureLeaks() {
    return Stream.concat(
        ArchFixtureSignatures.LEAKS.stream(),
        Stream.of(ArchFixtureAckLeak.class, ApiLeaksCoreInternal.class));
  }

  @ParameterizedTest
  @MethodSource("signatureLeaks")
  void signatureRule_failsWhenAPublicSignatureExposesAnInternalType(Class<?> leak) {
    assertFails(ArchitectureTest.public_api_exposes_no_core_internal_type, load(leak));
  }

  @Test
  void signatureRule_ignoresPrivateMembersAndNonPublicClasses() {
    // PrivateAndPackageMembers keeps the rule's subject non-empty; the others are not subjects.
    assertPasses(
        ArchitectureTest.public_api_exposes_no_core_internal_type,
        load(ArchFixtureSignatures.HIDDEN));
  }

  @Test
  void signatureRule_coversEveryPackageThatApiAndCoreExport() {
    Set<String> exported =
        Stream.of(Ack.class, SinkHandoff.class)
            .map(ArchitectureRulesBiteTest::compiledDescriptor)
            .flatMap(d -> d.exports().stream())
            .map(Exports::source)
            .collect(Collectors.toSet());
    List<PackageMatcher> covered =
        Arrays.stream(ArchitectureTest.EXPORTED_API_PACKAGES).map(PackageMatcher::of).toList();

    assertThat(exported).isNotEmpty();
    assertThat(exported)
        .as("every exported package is checked by public_api_exposes_no_core_internal_type")
        .allMatch(p -> covered.stream().anyMatch(m -> m.matches(p)));
    assertThat(exported)
        .as("core.internal is not exported")
        .noneMatch(p -> PackageMatcher.of(ArchitectureTest.CORE_INTERNAL).matches(p));
  }

  // --- time and randomness ------------------------------------------------------------------

  static Stream<Class<?>> coreClockAndRandomViolators() {
    return Stream.concat(
        ClockAndRandomReaders.CLOCK_READERS.stream(),
        ClockAndRandomReaders.UNSEEDED_RANDOMNESS.stream());
  }

  @ParameterizedTest
  @MethodSource("coreClockAndRandomViolators")
  void coreClockRule_failsOnEverySystemClockReadAndUnseededRandomness(Class<?> violator) {
    assertFails(
        ArchitectureTest.core_reads_no_system_clock_and_no_unseeded_randomness, load(violator));
  }

  @Test
  void coreClockRule_allowsTheInjectedClockAndSeededRandomness() {
    assertPasses(
        ArchitectureTest.core_reads_no_system_clock_and_no_unseeded_randomness,
        load(DeterministicTimeAndRandomness.class));
  }

  @ParameterizedTest
  @MethodSource("testkitViolators")
  void testkitClockRule_failsOnSystemClockReadsAndUnseededRandomness(Class<?> violator) {
    assertFails(
        ArchitectureTest.testkit_reads_no_system_clock_and_no_unseeded_randomness,
        load(violator));
  }

  static Stream<Class<?>> testkitViolators() {
    return Stream.of(TestkitClockReader.class, TestkitUnseededRandom.class);
  }

  @ParameterizedTest
  @MethodSource("clockReadersOutsideSystemClock")
  void onlySystemClockRule_failsForAnyOtherClassThatReadsTheClock(Class<?> violator) {
    assertFails(ArchitectureTest.only_the_api_SystemClock_reads_the_system_clock, load(violator));
  }

  static Stream<Class<?>> clockReadersOutsideSystemClock() {
    return Stream.concat(
        ClockAndRandomReaders.CLOCK_READERS.stream(),
        Stream.of(ApiReadsClock.class, TestkitClockReader.class, SimulatorReadsClock.class));
  }

  @Test
  void onlySystemClockRule_exemptsTheSimulatorsWallClockOnly_whichReallyReadsTheClock() {
    JavaClasses wallClock = load(simulatorClass("WallClock"));
    // The exemption is needed (WallClock reads System.nanoTime) and names that one class: a
    // class of the same package that reads the clock is still flagged.
    assertFails(
        noClasses().should().accessTargetWhere(ArchitectureTest.readsTheSystemClock()),
        wallClock);
    // Rng (which reads no clock) keeps the rule's subject non-empty once WallClock is exempt.
    assertPasses(
        ArchitectureTest.only_the_api_SystemClock_reads_the_system_clock,
        load(simulatorClass("WallClock"), simulatorClass("Rng")));
    assertFails(
        ArchitectureTest.only_the_api_SystemClock_reads_the_system_clock,
        load(simulatorClass("WallClock"), SimulatorReadsClock.class));
  }

  @Test
  void simulatorRandomnessRule_failsOnUnseededRandomnessAndAllowsTheSeededRng() {
    assertFails(
        ArchitectureTest.simulator_draws_no_unseeded_randomness,
        load(SimulatorUnseededRandom.class));
    assertPasses(
        ArchitectureTest.simulator_draws_no_unseeded_randomness, load(simulatorClass("Rng")));
  }

  @Test
  void coreDescriptor_exportsNothingQualified() {
    ModuleDescriptor core = compiledDescriptor(SinkHandoff.class);

    assertThat(core.exports()).noneMatch(Exports::isQualified);
    assertThat(core.packages()).doesNotContain("dev.handoff.core.seam");
  }

  @Test
  void onlySystemClockRule_exemptsSystemClock_whichReallyReadsTheClock() {
    JavaClasses systemClock = load(systemClock());
    // The exemption is needed: the clock predicate matches what SystemClock actually does.
    assertFails(
        noClasses().should().accessTargetWhere(ArchitectureTest.readsTheSystemClock()),
        systemClock);
    assertPasses(
        ArchitectureTest.only_the_api_SystemClock_reads_the_system_clock,
        load(systemClock(), DeterministicTimeAndRandomness.class));
  }

  // --- tck_depends_only_on_the_api_junit_and_assertj ----------------------------------------

  @Test
  void tckRule_failsWhenTheTckUsesCore() {
    assertFails(ArchitectureTest.tck_depends_only_on_the_api_junit_and_assertj,
        load(TckUsesCore.class));
  }

  @Test
  void tckRule_allowsTheApiJUnitAndAssertJ_andHoldsForTheRealSuites() {
    assertPasses(ArchitectureTest.tck_depends_only_on_the_api_junit_and_assertj,
        load(TckUsesApiJUnitAndAssertJ.class, RowEncoderContract.class));
  }

  // --- no rule passes vacuously -------------------------------------------------------------

  static Stream<ArchRule> rulesWithASubjectPackage() {
    return Stream.of(
        ArchitectureTest.api_depends_only_on_java_and_itself,
        ArchitectureTest.core_never_depends_on_encoders_or_simulator,
        ArchitectureTest.core_never_depends_on_micrometer,
        ArchitectureTest.core_internal_is_used_only_by_core,
        ArchitectureTest.public_api_exposes_no_core_internal_type,
        ArchitectureTest.core_reads_no_system_clock_and_no_unseeded_randomness,
        ArchitectureTest.testkit_reads_no_system_clock_and_no_unseeded_randomness,
        ArchitectureTest.simulator_draws_no_unseeded_randomness,
        ArchitectureTest.tck_depends_only_on_the_api_junit_and_assertj);
  }

  @ParameterizedTest
  @MethodSource("rulesWithASubjectPackage")
  void everyRule_failsWhenItsSubjectMatchesNoClass(ArchRule rule) {
    JavaClasses none = load(List.of());
    assertThatThrownBy(() -> rule.check(none))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("failed to check any classes");
  }

  // --- helpers ------------------------------------------------------------------------------

  /** Reads the module descriptor compiled into the jar or directory that holds {@code type}. */
  static ModuleDescriptor compiledDescriptor(Class<?> type) {
    try {
      Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
      Set<ModuleReference> modules = ModuleFinder.of(location).findAll();
      assertThat(modules).as("modules at %s", location).hasSize(1);
      return modules.iterator().next().descriptor();
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }
}
