import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.trace.TraceFormat;
import java.nio.file.Path;

/**
 * Prints the trace of one engine run of a design (simulated device), for the HTML view's column-axis benchmark: the
 * CLI writes no trace of a run, and a random check's schedules are too short. Run with the CLI jar on the class path:
 * {@code java -cp cli/target/interlock-cli-0.1.0-SNAPSHOT-all.jar bench/LongTrace.java DESIGN ROLE THREADS JOBS}.
 */
public final class LongTrace {
  public static void main(String[] args) throws Exception {
    Design d = DesignParser.parse(Path.of(args[0])).withThreads(args[1], Integer.parseInt(args[2]))
        .withJobs(args[1], Integer.parseInt(args[3]));
    RunReport r;
    try (SimulatedDevice dev = new SimulatedDevice(d.vram())) {
      r = new Engine(dev, StepGate.FREE).run(d, args[0], InterpretedPipeline::new);
    }
    System.out.print(TraceFormat.print(r.trace()));
  }
}
