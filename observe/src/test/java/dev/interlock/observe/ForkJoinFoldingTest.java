package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A thread started and at once joined by its creator is the creator's work; any other thread stays its own. */
class ForkJoinFoldingTest {
  private static final String HEAD = "# interlock capture v1\n# pid=1 program=p clock=CLOCK_MONOTONIC start_ns=0\n";

  private static List<String> steps(String records) throws Exception {
    return CaptureSteps.of(CaptureFormat.parse("f.capture", HEAD + records)).events().stream()
        .map(CaptureFormat::format).toList();
  }

  @Test
  void aChildJoinedAtOnceIsFoldedIntoItsCreatorTransitively() throws Exception {
    List<String> out = steps(""
        + "1 10 lock obj=mutex@0x1 rc=0\n"
        + "2 10 thread_start child=11 rc=0\n"
        + "3 11 thread_name name=per_gpu\n"
        + "4 11 alloc ptr=0x7f0000000000 bytes=4096 async=1 stream=0xa rc=2 api=cuMemAllocAsync\n"
        + "5 11 thread_start child=12 rc=0\n"
        + "6 12 free ptr=0x7f0000001000 async=0 stream=- rc=0 api=cuMemFree_v2\n"
        + "7 11 thread_join child=12 rc=0\n"
        + "8 10 thread_join child=11 rc=0\n"
        + "9 10 unlock obj=mutex@0x1\n");
    assertThat(out).containsExactly(
        "1 10 lock obj=mutex@0x1 rc=0",
        "4 10 alloc ptr=0x7f0000000000 bytes=4096 async=1 stream=0xa rc=2 api=cuMemAllocAsync",
        "6 10 free ptr=0x7f0000001000 async=0 stream=- rc=0 api=cuMemFree_v2",
        "9 10 unlock obj=mutex@0x1");
  }

  @Test
  void aChildsRecordsWrittenBeforeItsStartRecordFoldTooWhenNoOlderThanTheStart() throws Exception {
    // captures made before the library held a child until its thread_start was written (phase 8's of run 78): the
    // start record carries the child's start time (25) but comes after the child's first records in the file
    List<String> out = steps(""
        + "10 10 lock obj=mutex@0x1 rc=0\n"
        + "20 11 free ptr=0x7f0000002000 async=0 stream=- rc=0 api=cuMemFree_v2\n" // an older thread 11, before the start
        + "30 11 thread_name name=per_gpu\n"
        + "31 11 alloc ptr=0x7f0000000000 bytes=4096 async=1 stream=0xa rc=0 api=cuMemAllocAsync\n"
        + "25 10 thread_start child=11 rc=0\n"
        + "40 11 free ptr=0x7f0000000000 async=1 stream=0xa rc=0 api=cuMemFreeAsync\n"
        + "50 10 thread_join child=11 rc=0\n"
        + "60 10 unlock obj=mutex@0x1\n");
    assertThat(out).containsExactly(
        "10 10 lock obj=mutex@0x1 rc=0",
        "20 11 free ptr=0x7f0000002000 async=0 stream=- rc=0 api=cuMemFree_v2",
        "31 10 alloc ptr=0x7f0000000000 bytes=4096 async=1 stream=0xa rc=0 api=cuMemAllocAsync",
        "40 10 free ptr=0x7f0000000000 async=1 stream=0xa rc=0 api=cuMemFreeAsync",
        "60 10 unlock obj=mutex@0x1");
  }

  @Test
  void aChildItsCreatorWorksBesideStaysItsOwnThread() throws Exception {
    String records = ""
        + "1 10 thread_start child=11 rc=0\n"
        + "2 11 alloc ptr=0x7f0000000000 bytes=4096 async=0 stream=- rc=0 api=cuMemAlloc_v2\n"
        + "3 10 lock obj=mutex@0x1 rc=0\n" // the creator works while the child runs: prep_msm beside the lock
        + "4 10 thread_join child=11 rc=0\n"
        + "5 10 thread_start child=12 rc=1\n" // a failed start folds nothing
        + "6 10 thread_join child=12 rc=0\n"
        + "7 10 thread_start child=13 rc=0\n"
        + "8 10 thread_join child=14 rc=0\n" // another child's join
        + "9 13 unlock obj=mutex@0x1\n";
    assertThat(steps(records)).containsExactly(records.strip().split("\n"));
  }

  @Test
  void aThreadIdGivenAgainAfterTheJoinIsAnotherThread() throws Exception {
    List<String> out = steps(""
        + "1 10 thread_start child=11 rc=0\n"
        + "2 11 alloc ptr=0x7f0000000000 bytes=4096 async=0 stream=- rc=0 api=cuMemAlloc_v2\n"
        + "3 10 thread_join child=11 rc=0\n"
        + "4 12 thread_start child=11 rc=0\n" // the kernel hands out 11 again, to a child of another thread
        + "5 11 free ptr=0x7f0000000000 async=0 stream=- rc=0 api=cuMemFree_v2\n"
        + "6 12 lock obj=mutex@0x1 rc=0\n");
    assertThat(out).containsExactly(
        "2 10 alloc ptr=0x7f0000000000 bytes=4096 async=0 stream=- rc=0 api=cuMemAlloc_v2",
        "4 12 thread_start child=11 rc=0",
        "5 11 free ptr=0x7f0000000000 async=0 stream=- rc=0 api=cuMemFree_v2",
        "6 12 lock obj=mutex@0x1 rc=0");
  }
}
