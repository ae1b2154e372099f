package dev.interlock.cli;

import dev.interlock.model.design.Design;
import dev.interlock.model.export.ExportException;
import dev.interlock.model.export.PromelaExport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code interlock export FILE --promela OUT.pml}: the design as a Promela model, to run Spin on the same design. */
@Command(name = "export", mixinStandardHelpOptions = true,
    description = "Write a design as an equivalent Promela model for Spin (docs/promela.md); exit 2 on bad input or a design Promela cannot express.")
final class ExportCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The .design file.")
  Path file;

  @Mixin
  DesignOptions design = new DesignOptions();

  @Option(names = "--promela", required = true, paramLabel = "OUT.pml", description = "Write the Promela model there.")
  Path promela;

  @Option(names = "--force", description = "Let --promela replace an existing file.")
  boolean force;

  @Override
  public Integer call() {
    TraceFiles.checkWritable(promela, force);
    Design d = design.load(file);
    String text;
    try {
      text = PromelaExport.promela(d);
    } catch (ExportException e) {
      throw new CliError(file + ": " + e.getMessage());
    }
    TraceFiles.write(text, promela, force, "Promela model");
    spec.commandLine().getOut().println("wrote " + promela + " (spin -a " + promela.getFileName()
        + " && gcc -DSAFETY -o pan pan.c && ./pan -m1000000)");
    return 0;
  }
}
