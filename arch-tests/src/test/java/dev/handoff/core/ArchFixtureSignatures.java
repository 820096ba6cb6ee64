package dev.handoff.core;

import dev.handoff.core.internal.archfixture.InternalType;
import dev.handoff.core.internal.archfixture.InternalType.InternalException;
import dev.handoff.core.internal.archfixture.InternalType.InternalInterface;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Test fixtures of the arch-tests module (not part of core), in the exported package {@code
 * dev.handoff.core}: each nested class in {@link #LEAKS} exposes an internal type in a different
 * place of a public signature; each in {@link #HIDDEN} uses one only where callers cannot see it.
 */
@SuppressWarnings("unused")
public final class ArchFixtureSignatures {
  private ArchFixtureSignatures() {}

  /** Classes that expose {@code dev.handoff.core.internal} types. */
  public static final List<Class<?>> LEAKS =
      List.of(
          ReturnType.class,
          ParameterType.class,
          TypeArgument.class,
          WildcardBound.class,
          ArrayComponent.class,
          ThrowsClause.class,
          MethodTypeParameterBound.class,
          Constructor.class,
          PublicField.class,
          ProtectedMethod.class,
          Superclass.class,
          Interface.class,
          ClassTypeParameterBound.class,
          Outer.Nested.class);

  /** Classes that use {@code dev.handoff.core.internal} types only out of callers' sight. */
  public static final List<Class<?>> HIDDEN =
      List.of(PrivateAndPackageMembers.class, PackagePrivate.class, PackagePrivate.Nested.class);

  /** Leaks through a return type. */
  public static final class ReturnType {
    /** Leaks. */
    public InternalType leak() {
      return null;
    }
  }

  /** Leaks through a parameter type. */
  public static final class ParameterType {
    /** Leaks. */
    public void leak(InternalType t) {}
  }

  /** Leaks through a type argument. */
  public static final class TypeArgument {
    /** Leaks. */
    public Optional<List<InternalType>> leak() {
      return Optional.empty();
    }
  }

  /** Leaks through a wildcard bound. */
  public static final class WildcardBound {
    /** Leaks. */
    public void leak(Function<? super InternalType, ?> f) {}
  }

  /** Leaks through an array component. */
  public static final class ArrayComponent {
    /** Leaks. */
    public InternalType[][] leak() {
      return null;
    }
  }

  /** Leaks through a throws clause. */
  public static final class ThrowsClause {
    /** Leaks. */
    public void leak() throws InternalException {}
  }

  /** Leaks through the bound of a method's type parameter. */
  public static final class MethodTypeParameterBound {
    /** Leaks. */
    public <T extends InternalInterface> void leak(T t) {}
  }

  /** Leaks through a public constructor. */
  public static final class Constructor {
    /** Leaks. */
    public Constructor(InternalType t) {}
  }

  /** Leaks through a public field. */
  public static final class PublicField {
    /** Leaks. */
    public InternalType leak;
  }

  /** Leaks through a protected method of a subclassable class. */
  public static class ProtectedMethod {
    /** Leaks. */
    protected InternalType leak() {
      return null;
    }
  }

  /** Leaks through its superclass. */
  public static final class Superclass extends InternalType {}

  /** Leaks through an interface. */
  public static final class Interface implements InternalInterface {}

  /** Leaks through the bound of the class's type parameter. */
  public static final class ClassTypeParameterBound<T extends InternalInterface> {}

  /** A public class whose public nested class leaks. */
  public static final class Outer {
    private Outer() {}

    /** Leaks. */
    public static final class Nested {
      /** Leaks. */
      public InternalType leak() {
        return null;
      }
    }
  }

  /** Uses internal types in private and package-private members only. */
  public static final class PrivateAndPackageMembers {
    private InternalType field;
    InternalType packageField;

    private InternalType hidden() {
      return field;
    }

    InternalType packageHidden(InternalType t) {
      return t;
    }

    /** Allowed: nothing internal in the signature. */
    public Object allowed() {
      return hidden();
    }
  }

  /** A package-private class: its public methods are not API. */
  static final class PackagePrivate {
    /** Allowed. */
    public InternalType notApi() {
      return null;
    }

    /** A public class nested in a package-private class: not API either. */
    public static final class Nested {
      /** Allowed. */
      public InternalType notApi() {
        return null;
      }
    }
  }
}
