package dev.interlock.model.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import org.junit.jupiter.api.Test;

/** What the export decides without Spin: the unit, rounding of {@code if free}, and what it refuses. */
class PromelaExportTest {
  @Test
  void countsBytesInTheGcdOfTheDesignsSizes() {
    String pml = PromelaExport.promela(TestDesigns.shipped("single-lock"));
    assertThat(pml).contains("Sizes in units of 2GiB").contains("#define VRAM 8  /* 16GiB */")
        .contains("live + 6 > VRAM -> assert(OOM)");
  }

  @Test
  void ifFreeRoundsItsSizeUpToWholeUnits() {
    Design d = TestDesigns.parse("""
        design d
        vram 4GiB
        role r x1 jobs 1
          alloc a 1GiB
          if free >= 1536MiB
            free a
          else
            free a
          end
        """);
    // free memory is a whole number of 1GiB units: free >= 1.5GiB iff free units >= 2
    assertThat(PromelaExport.promela(d)).contains("(VRAM - live) >= 2 ->").contains("(VRAM - live) < 2 ->");
  }

  @Test
  void aPoolOnlyWhereSomeAllocIsAsync() {
    assertThat(PromelaExport.promela(TestDesigns.shipped("two-lock"))).doesNotContain("cached[");
    assertThat(PromelaExport.promela(TestDesigns.shipped("cuzk/phase12"))).contains("int cached[", "inline take(s)");
  }

  @Test
  void refusesSizesWithoutASmallCommonUnit() {
    Design d = TestDesigns.parse("""
        design d
        vram 80GiB
        role r x1 jobs 1
          alloc a 1B
          free a
        """);
    assertThatThrownBy(() -> PromelaExport.promela(d)).isInstanceOf(ExportException.class)
        .hasMessageContaining("common unit is 1B").hasMessageContaining("more than a Promela int holds");
  }

  @Test
  void refusesMoreThreadsThanSpinRuns() {
    Design d = TestDesigns.shipped("single-lock").withThreads("gpu_worker", 255);
    assertThatThrownBy(() -> PromelaExport.promela(d)).isInstanceOf(ExportException.class)
        .hasMessageContaining("255 threads").hasMessageContaining("at most 254");
  }
}
