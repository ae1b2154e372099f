package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DesignPrinterTest {

  static Stream<Design> designs() {
    Design twoLock = new Design("two-lock", 16L << 30, List.of("mem_mtx", "compute_mtx"),
        List.of(new Semaphore("vram_units", 16)),
        List.of(new Role("gpu_worker", 3, 2, List.of(
            new Cpu("synthesize"),
            new Lock("mem_mtx"),
            new Alloc("staged", 12L << 30, false),
            new Unlock("mem_mtx"),
            new Lock("compute_mtx"),
            new Alloc("scratch", 2L << 30, true),
            new Kernel("ntt_msm", List.of("staged", "scratch"), Optional.of(Duration.ofMillis(120))),
            new Free("scratch"),
            new Free("staged"),
            new Unlock("compute_mtx"),
            new Cpu("b_g2_msm", Optional.of(Duration.ofMillis(500)))))));
    Design semaphores = new Design("sems", 1536L << 20, List.of(),
        List.of(new Semaphore("gate", 0), new Semaphore("units", 7)),
        List.of(
            new Role("producer", 1, 5, List.of(
                new Alloc("buf", 100, true),
                new Release("gate", 1),
                new Release("units", 3),
                new Trim())),
            new Role("consumer", 4, 1, List.of(
                new Acquire("gate", 1),
                new Acquire("units", 3),
                new Kernel("k", List.of()),
                new Kernel("k2", List.of("a"), Optional.of(Duration.ofNanos(7))),
                new Kernel("k3", List.of(), Optional.of(Duration.ofNanos(40_000))),
                new Sync(),
                new Free("buf")))));
    Design keywordNames = new Design("role", 3L * 1024 + 1, List.of("lock", "x3"),
        List.of(new Semaphore("for", 2)),
        List.of(new Role("jobs", 2147483647, 2147483647, List.of(
            new Lock("x3"),
            new Acquire("for", 2147483647),
            new Kernel("uses", List.of("uses", "for")),
            new Kernel("for", List.of("for", "async"), Optional.of(Duration.ofSeconds(3))),
            new Cpu("for", Optional.of(Duration.ofNanos(1_500_000_001))),
            new Alloc("async", 1, true),
            new Unlock("lock")))));
    return Stream.of(twoLock, semaphores, keywordNames);
  }

  @ParameterizedTest
  @MethodSource("designs")
  void roundTrips(Design d) throws DesignException {
    String text = DesignPrinter.print(d);
    assertThat(DesignParser.parse("printed", text)).isEqualTo(d);
    assertThat(DesignPrinter.print(DesignParser.parse("printed", text))).isEqualTo(text);
  }

  @Test
  void printsTheCanonicalForm() {
    Design d = new Design("two-lock", 16L << 30, List.of("mem_mtx"), List.of(new Semaphore("units", 0)),
        List.of(
            new Role("gpu_worker", 3, 2, List.of(
                new Lock("mem_mtx"),
                new Alloc("staged", 12L << 30, true),
                new Kernel("ntt", List.of("staged"), Optional.of(Duration.ofMillis(500))),
                new Free("staged"),
                new Unlock("mem_mtx"))),
            new Role("cpu_worker", 1, 1, List.of(new Cpu("epilogue")))));
    assertThat(DesignPrinter.print(d)).isEqualTo(String.join("\n",
        "design two-lock",
        "vram 16GiB",
        "mutex mem_mtx",
        "semaphore units 0",
        "",
        "role gpu_worker x3 jobs 2",
        "  lock mem_mtx",
        "  alloc staged 12GiB async",
        "  kernel ntt uses staged for 500ms",
        "  free staged",
        "  unlock mem_mtx",
        "",
        "role cpu_worker x1 jobs 1",
        "  cpu epilogue",
        ""));
  }

  @Test
  void theExampleRoundTrips() throws DesignException {
    Design d = DesignParser.parse("x", DesignParserTest.EXAMPLE);
    assertThat(DesignParser.parse("x", DesignPrinter.print(d))).isEqualTo(d);
  }
}
