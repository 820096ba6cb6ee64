package dev.handoff.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ImportOption.DoNotIncludeTests;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The architecture rules of issue 2, section 4, checked over the main (non-test) classes of every
 * module on this module's test class path.
 *
 * <p>Every rule keeps ArchUnit's default {@code failOnEmptyShould=true}, so a rule whose subject
 * matches no class fails instead of passing vacuously. {@link ArchitectureRulesBiteTest} runs each
 * rule against small violating fixtures (and compliant ones) to prove that it can fail and that it
 * does not flag what is allowed.
 *
 * <p>When a new module arrives (encoders, simulator, sink), add it as a test dependency of this
 * module so its classes are analysed too.
 */
@AnalyzeClasses(packages = "dev.handoff", importOptions = DoNotIncludeTests.class)
public final class ArchitectureTest {

  /**
   * The packages that {@code dev.handoff.api}, {@code dev.handoff.core} and {@code
   * dev.handoff.micrometer} export.
   */
  static final String[] EXPORTED_API_PACKAGES = {
    "dev.handoff.api..", "dev.handoff.core", "dev.handoff.core.ack", "dev.handoff.core.sink",
    "dev.handoff.micrometer"
  };

  static final String CORE_INTERNAL = "dev.handoff.core.internal..";

  /** The one class that may read real time: the API's system clock. */
  static final String SYSTEM_CLOCK = "dev.handoff.api.SystemClock";

  /**
   * The simulator's one reader of real time, which reports wall time and throughput only (nothing
   * a simulated run decides depends on it).
   */
  static final String SIMULATOR_WALL_CLOCK = "dev.handoff.simulator.WallClock";

  private ArchitectureTest() {}

  // ---------------------------------------------------------------------------------------------
  // Dependencies between modules

  private static final String LATIN1_STRINGS = "dev.handoff.api.Latin1Strings";

  /** {@code handoff-api} depends on the JDK and itself only: nothing else of ours, no library. */
  @ArchTest
  static final ArchRule api_depends_only_on_java_and_itself =
      classes()
          .that()
          .resideInAPackage("dev.handoff.api..")
          .and()
          .doNotHaveFullyQualifiedName(LATIN1_STRINGS)
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "dev.handoff.api..")
          .because("handoff-api is what vendors implement; it must bring no dependency with it");

  /**
   * The one exception: the String probe behind {@code ChunkBuffer}'s bulk copy reads {@code
   * sun.misc.Unsafe} (module {@code jdk.unsupported}, required {@code static}), and nothing else
   * outside the JDK's {@code java} packages.
   */
  @ArchTest
  static final ArchRule only_the_string_probe_in_api_reads_unsafe =
      classes()
          .that()
          .haveFullyQualifiedName(LATIN1_STRINGS)
          .should()
          .onlyDependOnClassesThat(JavaClass.Predicates.resideInAnyPackage("java..",
              "dev.handoff.api..").or(HasName.Predicates.name("sun.misc.Unsafe")))
          .because("Latin1Strings turns itself off where jdk.unsupported is absent");

  /**
   * Core never depends on encoders or the simulator. The rule matches by package name, so it holds
   * whether or not those modules are on the class path yet (a reference is recorded by name).
   */
  @ArchTest
  static final ArchRule core_never_depends_on_encoders_or_simulator =
      noClasses()
          .that()
          .resideInAPackage("dev.handoff.core..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("dev.handoff.encoders..", "dev.handoff.simulator..")
          .because("encoders plug into core through the API's ServiceLoader SPI, and the simulator"
              + " drives core from outside");

  /**
   * Micrometer is optional: only the {@code handoff-micrometer} binding may use it, never core
   * (which exposes plain metrics records and listeners for any registry).
   */
  @ArchTest
  static final ArchRule core_never_depends_on_micrometer =
      noClasses()
          .that()
          .resideInAPackage("dev.handoff.core..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("io.micrometer..")
          .because("Micrometer is an optional dependency, bound in handoff-micrometer only");

  /** Core's internals are used by core only (this covers "the API never touches core.internal"). */
  @ArchTest
  static final ArchRule core_internal_is_used_only_by_core =
      classes()
          .that()
          .resideInAPackage(CORE_INTERNAL)
          .should()
          .onlyHaveDependentClassesThat()
          .resideInAPackage("dev.handoff.core..")
          .because("dev.handoff.core.internal is not exported: nothing outside core may use it");

  /** No public or protected signature of an exported package mentions a core.internal type. */
  @ArchTest
  static final ArchRule public_api_exposes_no_core_internal_type =
      classes()
          .that()
          .resideInAnyPackage(EXPORTED_API_PACKAGES)
          .and(accessibleFromOtherPackages())
          .should(exposeNoTypeFrom(CORE_INTERNAL))
          .because("a caller outside the module cannot use a type of an unexported package");

  // ---------------------------------------------------------------------------------------------
  // Time and randomness

  /**
   * Issue 2: no core class reads the system clock directly (time comes from the injected {@link
   * dev.handoff.api.HandoffClock}) or draws unseeded randomness, so the simulator can replay a run.
   */
  @ArchTest
  static final ArchRule core_reads_no_system_clock_and_no_unseeded_randomness =
      noClasses()
          .that()
          .resideInAPackage("dev.handoff.core..")
          .should()
          .accessTargetWhere(readsTheSystemClock())
          .orShould()
          .accessTargetWhere(drawsUnseededRandomness())
          .orShould()
          .dependOnClassesThat(areUnseededRandomSources())
          .because("time comes from dev.handoff.api.HandoffClock and randomness from a seed, so a run"
              + " can be replayed deterministically");

  /** The same for the testkit: its fakes and generators must be deterministic too. */
  @ArchTest
  static final ArchRule testkit_reads_no_system_clock_and_no_unseeded_randomness =
      noClasses()
          .that()
          .resideInAPackage("dev.handoff.testkit..")
          .should()
          .accessTargetWhere(readsTheSystemClock())
          .orShould()
          .accessTargetWhere(drawsUnseededRandomness())
          .orShould()
          .dependOnClassesThat(areUnseededRandomSources())
          .because("the testkit's doubles and seeded generators must replay the same way");

  /**
   * The API's {@code SystemClock} is the only main class of any module that reads real time for
   * the system; all the others go through {@link dev.handoff.api.HandoffClock}. The one other exemption
   * is the simulator's {@code WallClock}, which measures how long a simulation took and feeds
   * nothing back into it.
   */
  @ArchTest
  static final ArchRule only_the_api_SystemClock_reads_the_system_clock =
      noClasses()
          .that()
          .doNotHaveFullyQualifiedName(SYSTEM_CLOCK)
          .and()
          .doNotHaveFullyQualifiedName(SIMULATOR_WALL_CLOCK)
          .should()
          .accessTargetWhere(readsTheSystemClock())
          .because("dev.handoff.api.HandoffClock.system() is the single place that reads real time"
              + " (the simulator's WallClock only reports wall time and throughput)");

  /** A simulated run draws every random decision from its seed, so a seed replays exactly. */
  @ArchTest
  static final ArchRule simulator_draws_no_unseeded_randomness =
      noClasses()
          .that()
          .resideInAPackage("dev.handoff.simulator..")
          .should()
          .accessTargetWhere(drawsUnseededRandomness())
          .orShould()
          .dependOnClassesThat(areUnseededRandomSources())
          .because("a seed and its options must replay the same run, event for event");

  /**
   * Encoders build on the API and the shared ClickHouse type model only: they never reach into
   * core (the stage finds them through ServiceLoader, not the other way round) nor into each other.
   */
  @ArchTest
  static final ArchRule encoders_depend_only_on_api_and_the_type_model =
      classes()
          .that()
          .resideInAnyPackage("dev.handoff.encoders.rowbinary..",
              "dev.handoff.encoders.clickhouse..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "dev.handoff.api..", "dev.handoff.clickhouse..",
              "dev.handoff.encoders.rowbinary..", "dev.handoff.encoders.clickhouse..")
          .because("an encoder is a plug-in: the API and the shared type model are all it needs");

  /**
   * The rule above lets every encoder package reach its own classes; this one keeps the encoders
   * apart (what they share belongs in the type model).
   */
  @ArchTest
  static final ArchRule rowbinary_does_not_depend_on_native =
      noClasses()
          .that()
          .resideInAPackage("dev.handoff.encoders.rowbinary..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.handoff.encoders.clickhouse..")
          .because("encoders share the type model, never each other's code");

  /** The same separation, seen from the Native encoder. */
  @ArchTest
  static final ArchRule native_encoder_does_not_depend_on_rowbinary =
      noClasses()
          .that()
          .resideInAPackage("dev.handoff.encoders.clickhouse..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("dev.handoff.encoders.rowbinary..")
          .because("encoders share the type model, never each other's code");

  /** The packages of the compression libraries the HTTP writer uses (lz4-java, zstd-jni). */
  static final String[] CODEC_PACKAGES = {"net.jpountz..", "com.github.luben.zstd.."};

  /**
   * The shared type model needs the API and (optionally) Jackson, nothing else of ours; the HTTP
   * writer, the one other {@code dev.handoff.clickhouse} module analysed here, may add the codecs.
   */
  @ArchTest
  static final ArchRule type_model_depends_only_on_api_and_jackson =
      classes()
          .that()
          .resideInAPackage("dev.handoff.clickhouse..")
          .and()
          .resideOutsideOfPackage("dev.handoff.clickhouse.http..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "dev.handoff.api..", "dev.handoff.clickhouse..",
              "com.fasterxml.jackson..")
          .because("both encoders share it; it must not drag in core or an encoder");

  /**
   * The HTTP writer needs the API, the type model, the JDK (its HTTP client) and the two codecs of
   * ClickHouse's compressed blocks, nothing else.
   */
  @ArchTest
  static final ArchRule http_writer_depends_only_on_api_types_jdk_and_codecs =
      classes()
          .that()
          .resideInAPackage("dev.handoff.clickhouse.http..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "javax.net.ssl..", "dev.handoff.api..",
              "dev.handoff.clickhouse..", CODEC_PACKAGES[0], CODEC_PACKAGES[1])
          .because("the writer is the transport: codecs for compressed inserts, no more (and"
              + " the JDK's TLS context, made only when an https connection needs it)");

  /** Only the HTTP writer compresses: no other module of ours touches the codec libraries. */
  @ArchTest
  static final ArchRule only_the_http_writer_uses_the_codecs =
      noClasses()
          .that()
          .resideInAPackage("dev.handoff..")
          .and()
          .resideOutsideOfPackage("dev.handoff.clickhouse.http..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(CODEC_PACKAGES)
          .because("LZ4 and ZSTD are the HTTP writer's business (ClickHouse's compressed blocks);"
              + " the rest of handoff stays free of native libraries");

  /**
   * The TCK proves an implementation with the API alone: its suites use the API, JUnit's API and
   * AssertJ, never core, an encoder or the type model (a vendor must not need them to run it).
   */
  @ArchTest
  static final ArchRule tck_depends_only_on_the_api_junit_and_assertj =
      classes()
          .that()
          .resideInAPackage("dev.handoff.tck..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "dev.handoff.api..", "dev.handoff.tck..",
              "org.junit.jupiter.api..", "org.assertj.core..")
          .because("a vendor runs the TCK with handoff-api only, at test scope");

  // ---------------------------------------------------------------------------------------------
  // Predicates and conditions

  /**
   * Calls or method references that read the wall or monotonic clock, or wait on it: {@code
   * System.currentTimeMillis/nanoTime}, {@code Thread.sleep}, {@code TimeUnit.sleep}, every {@code
   * java.time} {@code now(...)} that does not take a {@code java.time.Clock}, and the {@code
   * java.time.Clock}/{@code InstantSource} factories backed by the system clock.
   */
  static DescribedPredicate<JavaAccess<?>> readsTheSystemClock() {
    return DescribedPredicate.describe(
        "reads the system clock (System.currentTimeMillis/nanoTime, Thread/TimeUnit.sleep,"
            + " java.time now(), java.time.Clock.system*/tick*)",
        access -> {
          AccessTarget target = access.getTarget();
          JavaClass owner = target.getOwner();
          String name = target.getName();
          switch (owner.getName()) {
            case "java.lang.System":
              return name.equals("currentTimeMillis") || name.equals("nanoTime");
            case "java.util.concurrent.TimeUnit":
              return name.equals("sleep");
            case "java.time.Clock":
              return name.startsWith("system") || name.matches("tick(Seconds|Minutes|Millis)");
            case "java.time.InstantSource":
              return name.equals("system");
            default:
              break;
          }
          if (name.equals("sleep") && owner.isAssignableTo(Thread.class)) {
            return true;
          }
          return name.equals("now")
              && PackageMatcher.of("java.time..").matches(owner.getPackageName())
              && !parameterTypeNames(target).contains("java.time.Clock");
        });
  }

  /**
   * Calls or references that draw randomness without a seed: {@code new Random()}, {@code new
   * SplittableRandom()}, {@code Math.random()}, {@code StrictMath.random()}, {@code
   * UUID.randomUUID()}, {@code Collections.shuffle(list)} without a {@code Random}.
   */
  static DescribedPredicate<JavaAccess<?>> drawsUnseededRandomness() {
    return DescribedPredicate.describe(
        "draws unseeded randomness (new Random(), new SplittableRandom(), Math.random(),"
            + " UUID.randomUUID(), Collections.shuffle(list))",
        access -> {
          AccessTarget target = access.getTarget();
          String name = target.getName();
          List<String> params = parameterTypeNames(target);
          switch (target.getOwner().getName()) {
            case "java.util.Random":
            case "java.util.SplittableRandom":
              return name.equals(JavaConstructor.CONSTRUCTOR_NAME) && params.isEmpty();
            case "java.lang.Math":
            case "java.lang.StrictMath":
              return name.equals("random");
            case "java.util.UUID":
              return name.equals("randomUUID");
            case "java.util.Collections":
              return name.equals("shuffle") && params.size() == 1;
            default:
              return false;
          }
        });
  }

  /** Types that are random sources without a seed by design. */
  static DescribedPredicate<JavaClass> areUnseededRandomSources() {
    return DescribedPredicate.describe(
        "are ThreadLocalRandom or SecureRandom",
        c ->
            c.getName().equals("java.util.concurrent.ThreadLocalRandom")
                || c.isAssignableTo("java.security.SecureRandom"));
  }

  private static List<String> parameterTypeNames(AccessTarget target) {
    List<String> names = new ArrayList<>();
    if (target instanceof CodeUnitAccessTarget) {
      for (JavaClass type : ((CodeUnitAccessTarget) target).getRawParameterTypes()) {
        names.add(type.getName());
      }
    }
    return names;
  }

  /** Public (or protected) classes whose enclosing classes, if any, are public or protected too. */
  static DescribedPredicate<JavaClass> accessibleFromOtherPackages() {
    return DescribedPredicate.describe(
        "are accessible from other packages",
        c -> {
          for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
            if (!isPublicOrProtected(k.getModifiers())) {
              return false;
            }
            if (k.isAnonymousClass() || k.isLocalClass()) {
              return false;
            }
          }
          return true;
        });
  }

  private static boolean isPublicOrProtected(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }

  /**
   * A class exposes a type when it appears (also as a type argument, array component or bound) in
   * its supertypes, its type parameters, or in the type, return type, parameter types, thrown
   * types or type parameters of its public or protected fields, methods and constructors.
   */
  static ArchCondition<JavaClass> exposeNoTypeFrom(String packageIdentifier) {
    PackageMatcher forbidden = PackageMatcher.of(packageIdentifier);
    return new ArchCondition<JavaClass>(
        "expose no type from " + packageIdentifier + " in a public or protected signature") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        List<JavaType> supertypes = new ArrayList<>(c.getInterfaces());
        c.getSuperclass().ifPresent(supertypes::add);
        supertypes.addAll(c.getTypeParameters());
        report(c, "supertypes or type parameters of " + c.getName(), supertypes, forbidden, events);

        for (JavaField field : c.getFields()) {
          if (isPublicOrProtected(field.getModifiers())
              && !field.getModifiers().contains(JavaModifier.SYNTHETIC)) {
            report(field, field.getFullName(), List.of(field.getType()), forbidden, events);
          }
        }
        for (JavaCodeUnit unit : c.getCodeUnits()) {
          Set<JavaModifier> modifiers = unit.getModifiers();
          if (!isPublicOrProtected(modifiers)
              || modifiers.contains(JavaModifier.SYNTHETIC)
              || modifiers.contains(JavaModifier.BRIDGE)) {
            continue;
          }
          List<JavaType> types = new ArrayList<>(unit.getParameterTypes());
          types.add(unit.getReturnType());
          types.addAll(unit.getThrowsClause().getTypes());
          types.addAll(unit.getTypeParameters());
          report(unit, unit.getFullName(), types, forbidden, events);
        }
      }
    };
  }

  private static void report(
      Object where,
      String what,
      List<? extends JavaType> types,
      PackageMatcher forbidden,
      ConditionEvents events) {
    Set<String> exposed = new TreeSet<>();
    for (JavaType type : types) {
      for (JavaClass raw : type.getAllInvolvedRawTypes()) {
        JavaClass base = raw.getBaseComponentType();
        if (forbidden.matches(base.getPackageName())) {
          exposed.add(base.getName());
        }
      }
    }
    if (!exposed.isEmpty()) {
      events.add(SimpleConditionEvent.violated(where, what + " exposes " + exposed));
    }
  }
}
