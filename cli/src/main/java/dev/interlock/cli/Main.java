package dev.interlock.cli;

import dev.interlock.gpu.cuda.MsmSettings;
import dev.interlock.prover.curve.Msm;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code interlock} command. */
@Command(name = "interlock", mixinStandardHelpOptions = true, version = "interlock 0.1.0",
    description = "Check GPU lock designs against a model of threads, locks and device-global VRAM.",
    subcommands = {CheckCommand.class, ReplayCommand.class, ShowCommand.class, RunCommand.class, FidelityCommand.class, ProveCommand.class, BenchCommand.class, ProverBenchCommand.class, MsmBenchCommand.class, ValidateCommand.class, InferCommand.class, CaptureCommand.class, CompareCaptureCommand.class, ExportCommand.class, SimulateCommand.class, CompareCommand.class})
public final class Main implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command: check, replay, run, prove or bench");
  }

  /** Runs the CLI and returns its exit status; used by tests as well as {@link #main}. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      String message = e instanceof CliError ? e.getMessage() : "internal error: " + e;
      if (!(e instanceof CliError) && System.getenv("INTERLOCK_DEBUG") != null) {
        e.printStackTrace(err);
      }
      if (wantsJson(parsed)) {
        cmd.getOut().println(Json.error(message));
        cmd.getOut().flush();
      } else {
        err.println("interlock: " + message);
        err.flush();
      }
      return 2;
    });
    cli.setParameterExceptionHandler((e, args1) -> {
      boolean json = java.util.Arrays.asList(args1).contains("--json");
      if (json) {
        out.println(Json.error(e.getMessage()));
        out.flush();
      } else {
        err.println("interlock: " + e.getMessage());
        err.println("Try 'interlock " + (e.getCommandLine().getParent() != null ? e.getCommandLine().getCommandName() + " " : "") + "--help'.");
        err.flush();
      }
      return 2;
    });
    // a bad -Dinterlock.msm (the CPU MSM) or -Dinterlock.msm.* (the GPU MSM) is bad input like any other: reported by the
    // handler above, before any command runs
    cli.setExecutionStrategy(parsed -> {
      Msm.configurationError().or(MsmSettings::configurationError).ifPresent(bad -> {
        throw new CommandLine.ExecutionException(parsed.commandSpec().commandLine(), bad, new CliError(bad));
      });
      return new CommandLine.RunLast().execute(parsed);
    });
    return cli.execute(args);
  }

  private static boolean wantsJson(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult sub = parsed;
    while (sub.subcommand() != null) {
      sub = sub.subcommand();
    }
    return sub.hasMatchedOption("--json");
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    System.exit(run(out, err, args));
  }
}
