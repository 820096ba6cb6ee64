package dev.handoff.core.internal.archfixture;

/** Test fixture: stands for a type of core's unexported internal package. */
public class InternalType {
  /** An internal exception type. */
  public static final class InternalException extends Exception {
    private static final long serialVersionUID = 1L;
  }

  /** An internal interface. */
  public interface InternalInterface {}
}
