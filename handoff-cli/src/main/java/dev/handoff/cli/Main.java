package dev.handoff.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The program's entry point: runs the {@code handoff} command and exits with its status.
 *
 * <p>Exit statuses: {@value #OK} when every oracle passed (or help was shown), {@value
 * #ORACLE_FAILED} when an oracle failed, {@value #USAGE} for a usage error (an unknown option, a
 * bad knob value, a missing seed), {@value #ERROR} when the run could not be done (a report file
 * that cannot be written, an error inside the simulator).
 */
public final class Main {

  /** Exit status of a run in which every oracle passed. */
  public static final int OK = 0;

  /** Exit status of a run or sweep in which an oracle failed. */
  public static final int ORACLE_FAILED = 1;

  /** Exit status of a usage error; the message names what was wrong. */
  public static final int USAGE = 2;

  /** Exit status when the run could not be done. */
  public static final int ERROR = 3;

  /** The subcommands' names, in the order the help lists them (see {@link #subcommand}). */
  private static final List<String> SUBCOMMANDS = List.of("simulate", "sweep", "replay", "ingest");

  /**
   * The converters picocli would register by reflection that no option of this program uses
   * (every {@code Duration} option names its own converter); leaving them out spares every run
   * the loading and lookup of those classes. A value the user set is kept.
   */
  private static final String UNUSED_CONVERTERS = "java\\.sql\\..*,java\\.time\\..*";

  private Main() {}

  /**
   * Runs the command and exits the JVM with its status.
   *
   * @param args the command line, for example {@code simulate --seed 42}
   */
  public static void main(String[] args) {
    if (System.getProperty("picocli.converters.excludes") == null) {
      System.setProperty("picocli.converters.excludes", UNUSED_CONVERTERS);
    }
    int status = commandLine(args.length > 0 ? args[0] : null).execute(args);
    System.exit(status);
  }

  /**
   * Returns the {@code handoff} command, ready to {@link CommandLine#execute execute}, with the
   * exit statuses and error messages of this class. Tests call this with their own writers set
   * through {@link CommandLine#setOut} and {@link CommandLine#setErr}.
   *
   * @return a fresh command line with every subcommand
   */
  public static CommandLine commandLine() {
    return commandLine(null);
  }

  /**
   * Returns the command as {@link #commandLine()} does, with only the subcommand named {@code
   * first} when the command line starts with a subcommand's name: picocli then runs that one and
   * no other, and building the options of the others (the simulation knobs of three of them)
   * would only cost time. Anything else ({@code --help}, a typo, nothing) gets them all, for the
   * list of commands and the suggestions.
   */
  static CommandLine commandLine(String first) {
    CommandLine cl = new CommandLine(new HandoffCommand().spec());
    for (String name : SUBCOMMANDS) {
      if (first == null || !SUBCOMMANDS.contains(first) || name.equals(first)) {
        // A CommandLine, not the bare object: only then does picocli apply the command's model
        // transformer (the knob options). ingest's model is built without annotations.
        cl.addSubcommand(name, name.equals("ingest") ? new CommandLine(new IngestCommand().spec())
            : new CommandLine(subcommand(name)));
      }
    }
    // picocli would read an argument starting with @ as a file of arguments; ingest's
    // --schema @file means the file holding the columns.
    cl.setExpandAtFiles(false);
    Handlers handlers = new Handlers();
    cl.setExitCodeExceptionMapper(handlers);
    cl.setParameterExceptionHandler(handlers);
    cl.setExecutionExceptionHandler(handlers);
    return cl;
  }

  /** Returns a new instance of the annotated subcommand {@code name} (all but ingest). */
  private static Object subcommand(String name) {
    return switch (name) {
      case "simulate" -> new SimulateCommand();
      case "sweep" -> new SweepCommand();
      case "replay" -> new ReplayCommand();
      default -> throw new IllegalArgumentException("no subcommand " + name);
    };
  }

  /**
   * The exit statuses and error messages. A class, not lambdas: a lambda of one of picocli's
   * interfaces makes the class-data archive's dump link that interface, and a linked class of
   * picocli's class-file version is left out of the archive (then loaded and verified by the old
   * verifier at every start).
   */
  private static final class Handlers implements CommandLine.IExitCodeExceptionMapper,
      CommandLine.IParameterExceptionHandler, CommandLine.IExecutionExceptionHandler {

    @Override
    public int getExitCode(Throwable e) {
      return e instanceof ParameterException ? USAGE : ERROR;
    }

    /** Prints the message and where to find help (not the whole usage: knobs make it long). */
    @Override
    public int handleParseException(ParameterException e, String[] args) {
      CommandLine line = e.getCommandLine();
      PrintWriter err = line.getErr();
      err.println(qualifiedName(line) + ": " + e.getMessage());
      UnmatchedArgumentException.printSuggestions(e, err);
      err.println("Run '" + qualifiedName(line) + " --help' for the options.");
      err.flush();
      return USAGE;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine line,
        CommandLine.ParseResult parsed) {
      PrintWriter err = line.getErr();
      if (e instanceof UncheckedIOException io) {
        err.println(line.getCommandName() + ": " + io.getCause().getMessage());
      } else {
        err.println(line.getCommandName() + ": the run failed with an error:");
        e.printStackTrace(err);
      }
      err.flush();
      return ERROR;
    }
  }

  private static String qualifiedName(CommandLine line) {
    return line.getParent() == null ? line.getCommandName()
        : qualifiedName(line.getParent()) + " " + line.getCommandName();
  }
}
