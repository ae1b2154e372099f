package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SyncOrderTest {
  private static final String HEAD = "# interlock capture v1\n# pid=1 program=/x clock=CLOCK_MONOTONIC start_ns=0\n";

  private static List<Integer> lines(List<CaptureEvent> events) {
    return events.stream().map(CaptureEvent::line).toList();
  }

  @Test
  void aKernelRangeOpenAtAnotherThreadsSyncIsClosedBeforeIt() throws Exception {
    Capture c = CaptureFormat.parse("s.capture", HEAD
        + "10 1 range_push name=k domain=-\n"      // 3
        + "11 1 launch kernel=k_kernel stream=0x1 corr=1 rc=0\n" // 4
        + "12 2 lock obj=mutex@0x10 rc=0\n"       // 5
        + "13 2 sync rc=0 api=cuCtxSynchronize\n" // 6
        + "14 2 unlock obj=mutex@0x10\n"          // 7
        + "15 1 sync_stream stream=0x1 rc=0\n"    // 8
        + "16 1 range_pop domain=-\n"             // 9
        + "17 1 range_push name=cpu_work domain=-\n" // 10
        + "18 2 sync rc=0 api=cuCtxSynchronize\n" // 11: thread 1 is inside a cpu range: nothing moves
        + "19 1 range_pop domain=-\n");           // 12
    assertThat(lines(SyncOrder.of(c.events(), Set.of("k")))).containsExactly(3, 4, 5, 8, 9, 6, 7, 10, 11, 12);
    assertThat(lines(SyncOrder.of(c.events(), Set.of()))).containsExactly(3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
  }

  @Test
  void aSyncBeforeAnotherThreadsKernelEndConformsAndWouldNotWithoutTheReorder() throws Exception {
    // ObserveProperties found it in CI: a worker's sync returned before another worker recorded its kernel's end
    String design = String.join("\n", "design d", "vram 4GiB", "mutex m", "role a x1 jobs 1", "  kernel k",
        "role b x1 jobs 1", "  lock m", "  sync", "  unlock m", "");
    String capture = HEAD
        + "10 1 range_push name=k domain=-\n"
        + "11 1 launch kernel=k_kernel stream=0x1 corr=1 rc=0\n"
        + "12 2 lock obj=m rc=0\n"
        + "13 2 sync rc=0 api=cuCtxSynchronize\n"
        + "14 2 unlock obj=m\n"
        + "15 1 range_pop domain=-\n";
    Design d = DesignParser.parse("d.design", design);
    Validation v = Validator.validate(d, "d.design", design, CaptureFormat.parse("s.capture", capture), Mapping.NONE);
    assertThat(v).isInstanceOf(Validation.Conforms.class);
    assertThat(((Validation.Conforms) v).threads()).isEqualTo(2);
    String inOrder = HEAD
        + "10 1 range_push name=k domain=-\n"
        + "11 1 launch kernel=k_kernel stream=0x1 corr=1 rc=0\n"
        + "12 2 lock obj=m rc=0\n"
        + "13 2 sync rc=0 api=cuCtxSynchronize\n";
    Validation never = Validator.validate(d, "d.design", design, CaptureFormat.parse("t.capture", inOrder), Mapping.NONE);
    assertThat(never).as("a kernel that never ends still blocks the sync").isInstanceOf(Validation.Diverges.class);
  }
}
