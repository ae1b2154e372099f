package dev.interlock.cli;

import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceFormatException;
import dev.interlock.view.html.TraceView;
import dev.interlock.view.html.TraceViews;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code interlock show TRACE... --html OUT.html}: one page with the traces one under the other. */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = "Write traces as one self-contained HTML page (lanes per thread, lock holds, device memory against vram, the violation marked), one under the other with aligned transitions: exit 0, 2 on bad input.")
final class ShowCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0..*", arity = "1..*", paramLabel = "TRACE", description = "Trace files.")
  List<Path> files;

  @Option(names = "--html", required = true, paramLabel = "OUT.html", description = "The page to write.")
  Path html;

  @Option(names = "--force", description = "Let --html replace an existing file.")
  boolean force;

  @Override
  public Integer call() {
    List<TraceView> views = new ArrayList<>();
    for (Path f : files) {
      Trace t;
      try {
        t = TraceFormat.read(f);
      } catch (TraceFormatException e) {
        throw new CliError(e.getMessage());
      }
      Design d = new DesignOptions().load(TraceDesigns.locate(f, t.source(), "run show from the folder the trace's source path is relative to"));
      views.add(TraceViews.ofTrace(f.toString(), t, d));
    }
    HtmlViews.write(html, force, "interlock show: " + String.join(", ", files.stream().map(Path::toString).toList()), views);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "html written to %s (%d trace%s)%n", html, views.size(), views.size() == 1 ? "" : "s");
    out.flush();
    return 0;
  }
}
