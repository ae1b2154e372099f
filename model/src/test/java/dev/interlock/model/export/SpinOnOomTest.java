package dev.interlock.model.export;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.design.Design;
import dev.interlock.model.state.ViolationKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The export of {@code on oom}, on designs with exactly one answer, which Spin must give as the checker does: a
 * handled failure is a branch (SAFE where the handler makes room), an ignored one SWALLOWED_OOM, and the device after
 * a failed allocation is the model's (a wrong pool after an async failure would send a handler into a BAD_FREE).
 */
class SpinOnOomTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void spinPresent() {
    SpinRequirement.require();
  }

  private static final String PRESTAGE = """
      design prestage-fallback
      vram 16GiB
      mutex gpu_mtx
      role gpu_worker x2 jobs 2
        alloc staged 10GiB
        on oom
          lock gpu_mtx
          alloc staged 6GiB
          unlock gpu_mtx
        end
        kernel ntt uses staged
        free staged
      """;

  /** After b fails, free memory is 0 with threshold max (else branch), 6GiB with threshold 0 (then branch). */
  private static final String POOL = """
      design pool
      vram 16GiB
      pool threshold THRESHOLD
      role w x1 jobs 1
        alloc a 10GiB async
        alloc b 10GiB async
        on oom
          if free >= 1GiB
            BRANCH
          else
            cpu c
          end
        end
        free a
      """;

  static Stream<Arguments> designs() {
    return Stream.of(
        Arguments.of("prestage x2", PRESTAGE, null),
        Arguments.of("prestage x3", PRESTAGE.replace("x2", "x3"), "OOM"),
        Arguments.of("prestage async x2", PRESTAGE.replace("10GiB", "10GiB async"), null),
        Arguments.of("prestage ignored", PRESTAGE.replace("  on oom\n    lock gpu_mtx\n    alloc staged 6GiB\n"
            + "    unlock gpu_mtx\n  end\n", "  on oom ignore\n"), "SWALLOWED_OOM"),
        Arguments.of("prestage unhandled", PRESTAGE.replace("  on oom\n    lock gpu_mtx\n    alloc staged 6GiB\n"
            + "    unlock gpu_mtx\n  end\n", ""), "OOM"),
        Arguments.of("empty handler, last step", "design e\nvram 4GiB\nrole w x1 jobs 2\n  alloc a 8GiB\n  on oom\n"
            + "  end\n", null),
        Arguments.of("handler ends the job, leak checked", "design e\nvram 4GiB\nrole w x1 jobs 2\n  alloc a 8GiB\n"
            + "  on oom\n  alloc a 2GiB\n  end\n", "LEAK"),
        Arguments.of("pool max: else branch", POOL.replace("THRESHOLD", "max").replace("BRANCH", "free a"), null),
        Arguments.of("pool 0: then branch", POOL.replace("THRESHOLD", "0B").replace("BRANCH", "free a"), "BAD_FREE"),
        Arguments.of("plain after async failure", POOL.replace("THRESHOLD", "max").replace("BRANCH", "cpu c")
            .replace("  end\n  free a\n", "  end\n  alloc c 6GiB\n  free c\n  free a\n"), null),
        Arguments.of("kept, ignored", "design k\nvram 4GiB\nrole w x1 jobs 2\n  alloc k0 8GiB keep\n  on oom ignore\n"
            + "  kernel k uses k0\n", "SWALLOWED_OOM"),
        Arguments.of("kept, handled", "design k\nvram 4GiB\nrole w x2 jobs 2\n  alloc k0 3GiB keep\n  on oom\n"
            + "  alloc s 1GiB\n  kernel k uses s\n  free s\n  end\n  cpu c\n", null),
        Arguments.of("task's handler", "design t\nvram 4GiB\nmutex m\nrole w x2 jobs 1\n  spawn t\n  join t\ntask t\n"
            + "  alloc x 3GiB\n  on oom\n  lock m\n  alloc x 1GiB\n  unlock m\n  end\n  kernel k uses x\n  free x\n",
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("designs")
  void spinGivesTheCheckersOneAnswer(String name, String text, String kind) throws Exception {
    Design d = TestDesigns.parse(text);
    CheckReport r = Checker.check(d, "<test>", new Checker.Options(5_000_000, Optional.empty(), false, true, true));
    assertThat(r.violations().stream().map(c -> c.violation().kind().name()))
        .as("the checker's violations of %s", name).containsExactlyElementsOf(kind == null ? java.util.List.of()
            : java.util.List.of(kind));
    Spin.Result spin = Spin.verify(PromelaExport.promela(d), dir, Duration.ofSeconds(120));
    assertThat(spin.complete()).as("Spin's search is complete:\n%s", spin.output()).isTrue();
    assertThat(spin.violation().map(Enum::name)).as("Spin on %s:\n%s", name, spin.output())
        .isEqualTo(Optional.ofNullable(kind));
  }

  @Test
  void aHandlerOnAnUnchangedDeviceWouldBeCaught() throws Exception {
    // the mutant leaves the pool as it was before the failed async alloc: its if free then reads 6GiB free
    Design d = TestDesigns.parse(POOL.replace("THRESHOLD", "max").replace("BRANCH", "free a"));
    String pml = PromelaExport.promela(d);
    String mutant = pml.lines().map(l -> l.contains(": fails, on oom */")
        ? l.replace("r_ = VRAM - live - cache; cached[t] = cached[t] + r_; cache = cache + r_; syncDevice();", "skip;")
        : l).collect(java.util.stream.Collectors.joining("\n", "", "\n"));
    assertThat(mutant).isNotEqualTo(pml);
    assertThat(Spin.verify(mutant, dir, Duration.ofSeconds(120)).violation()).contains(ViolationKind.BAD_FREE);
  }

  @Test
  void theExportNamesTheHandlerBranchAndTheMissingMark() {
    String pml = PromelaExport.promela(TestDesigns.parse(PRESTAGE));
    assertThat(pml).contains("if /* alloc staged 10GiB, on oom */").contains(": fails, on oom */");
    String ignored = PromelaExport.promela(TestDesigns.parse("design x\nvram 4GiB\nrole w\n  alloc a 8GiB\n"
        + "  on oom ignore\n  free a\n"));
    // the alloc's one value is 1, so the missing mark is 2: the failure sets it, the free of it frees nothing
    assertThat(ignored).contains("assert(SWALLOWED_OOM); r0_buf[(w*1+0)*1+0] = 2;")
        .contains("r0_buf[(w*1+0)*1+0] == 2 -> r0_buf[(w*1+0)*1+0] = 0");
    assertThat(PromelaExport.kindNames()).contains(ViolationKind.SWALLOWED_OOM.name());
  }
}
