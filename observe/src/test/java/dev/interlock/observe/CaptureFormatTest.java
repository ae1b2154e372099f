package dev.interlock.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class CaptureFormatTest {
  private static final String HEAD = "# interlock capture v1\n# pid=42 program=/opt/my%20prover clock=CLOCK_MONOTONIC start_ns=100\n";

  @Test
  void readsEveryKindAndSkipsUnknownEventsAndKeys() throws Exception {
    String text = HEAD + "# a comment\n"
        + "110 7 name obj=mutex@0x10 name=compute%20mtx\n"
        + "120 7 lock obj=mutex@0x10 rc=0 future=1\n"
        + "130 7 alloc ptr=0x7f00 bytes=4096 async=0 stream=- rc=0 api=cuMemAlloc_v2\n"
        + "135 7 teleport to=mars\n"
        + "140 7 kernel corr=3 start_ns=150 end_ns=160\n";
    Capture c = CaptureFormat.parse("t.capture", text);
    assertThat(c.program()).isEqualTo("/opt/my prover");
    assertThat(c.pid()).isEqualTo(42);
    assertThat(c.events()).hasSize(4);
    assertThat(((CaptureEvent.Name) c.events().get(0)).name()).isEqualTo("compute mtx");
    assertThat(c.events().get(2)).isEqualTo(new CaptureEvent.Alloc(6, 130, 7, 0x7f00, 4096, false, "-", 0, "cuMemAlloc_v2"));
    assertThat(c.warnings()).isEmpty();
  }

  @Test
  void writtenRecordsReadBackEqual() throws Exception {
    List<CaptureEvent> recs = List.of(
        new CaptureEvent.ThreadName(3, 1, 9, "gpu worker=1", 9),
        new CaptureEvent.Acquire(4, 2, 9, CaptureEvent.AcquireKind.SEM_WAIT, "sem@0x20", 0),
        new CaptureEvent.Free(5, 3, 9, 0xffff_ffff_ffff_0000L, true, "0x1", 0, "cuMemFreeAsync"),
        new CaptureEvent.MemInfo(6, 4, 9, 10, 20, 0),
        new CaptureEvent.Launch(7, 5, 9, "ntt%msm", "0x1", 1, 0));
    assertThat(CaptureFormat.parse("w.capture", CaptureWriter.text(recs)).events()).isEqualTo(recs);
  }

  @Test
  void tryTimedRwlockStartEndAndMarkRecordsReadBackEqual() throws Exception {
    List<CaptureEvent> recs = new java.util.ArrayList<>();
    int line = 3;
    for (CaptureEvent.AcquireKind k : CaptureEvent.AcquireKind.values()) {
      recs.add(new CaptureEvent.Acquire(line++, line, 9, k, "obj@0x1", k == CaptureEvent.AcquireKind.SYNC_ACQUIRE ? 0 : 110));
    }
    for (CaptureEvent.ReleaseKind k : CaptureEvent.ReleaseKind.values()) {
      recs.add(new CaptureEvent.Release(line++, line, 9, k, "obj@0x1"));
    }
    recs.add(new CaptureEvent.RangeStart(line++, line, 9, "h2d copy", "my=domain", 1));
    recs.add(new CaptureEvent.RangeEnd(line++, line, 10, 1));
    recs.add(new CaptureEvent.Mark(line++, line, 9, "100%", "-"));
    String text = CaptureWriter.text(recs);
    assertThat(text).contains("9 timedlock obj=obj@0x1 rc=110\n", "9 sem_trywait obj=obj@0x1 rc=110\n",
        "9 sem_timedwait obj=obj@0x1 rc=110\n", "9 rdlock obj=obj@0x1 rc=110\n", "9 wrlock obj=obj@0x1 rc=110\n",
        "9 rdunlock obj=obj@0x1\n", "9 wrunlock obj=obj@0x1\n", "9 range_start name=h2d%20copy domain=my%3Ddomain id=1\n",
        "10 range_end id=1\n", "9 mark name=100%25 domain=-\n");
    List<CaptureEvent> back = CaptureFormat.parse("w.capture", text).events();
    assertThat(back).isEqualTo(recs);
    assertThat(back.stream().filter(e -> e instanceof CaptureEvent.Acquire a && a.taken())).hasSize(1); // sync_acquire
  }

  @Test
  void badNewRecordsArePositioned() {
    assertError(HEAD + "12 7 range_start name=a domain=-\n", "x.capture:3:6: missing id=");
    assertError(HEAD + "12 7 range_start name=a domain=- id=x\n", "x.capture:3:37: id must be a decimal number, got 'x'");
    assertError(HEAD + "12 7 range_end id=0\n", "x.capture:3:19: id must be positive, got 0");
    assertError(HEAD + "12 7 range_end id=-3\n", "x.capture:3:19: id must not be negative");
    assertError(HEAD + "12 7 range_end\n", "x.capture:3:6: missing id=");
    assertError(HEAD + "12 7 mark domain=-\n", "x.capture:3:6: missing name=");
    assertError(HEAD + "12 7 mark name= domain=-\n", "x.capture:3:16: name is empty");
    assertError(HEAD + "12 7 timedlock obj=mutex@0x1\n", "x.capture:3:6: missing rc=");
    assertError(HEAD + "12 7 sem_trywait obj=sem@0x1 rc=EAGAIN\n", "x.capture:3:33: rc must be a decimal number");
    assertError(HEAD + "12 7 rdunlock\n", "x.capture:3:6: missing obj=");
  }

  @Test
  void aTruncatedLastLineIsIgnoredWithAWarning() throws Exception {
    String text = HEAD + "120 7 lock obj=mutex@0x10 rc=0\n130 7 alloc ptr=0x7f00 bytes=40\0\0\0";
    Capture c = CaptureFormat.parse("crash.capture", text);
    assertThat(c.events()).hasSize(1);
    assertThat(c.warnings()).containsExactly("crash.capture:4:1: warning: truncated last record ignored (no newline)");
  }

  @Test
  void aReleaseThresholdIsUnsignedAndNeverReleaseReadsAsTheLargestLong() throws Exception {
    Capture c = CaptureFormat.parse("p.capture", HEAD
        + "110 7 pool_threshold pool=0x10 bytes=18446744073709551615 rc=0\n"
        + "120 7 pool_threshold pool=0x10 bytes=1073741824 rc=0\n");
    assertThat(c.events()).extracting(e -> ((CaptureEvent.PoolThreshold) e).bytes())
        .containsExactly(Long.MAX_VALUE, 1L << 30);
    assertThat(CaptureFormat.parse("w.capture", CaptureWriter.text(c.events())).events()).isEqualTo(c.events());
    assertError(HEAD + "12 7 pool_threshold pool=0x1 bytes=-1 rc=0\n", "x.capture:3:36: bytes must be an unsigned decimal number");
  }

  @Test
  void badLinesArePositioned() {
    assertError("nope\n", "x.capture:1:1: not a capture");
    assertError(HEAD + "12 x lock obj=m rc=0\n", "x.capture:3:4: thread id must be a decimal number, got 'x'");
    assertError(HEAD + "12 7 lock rc=0\n", "x.capture:3:6: missing obj=");
    assertError(HEAD + "12 7 alloc ptr=zz bytes=1 async=0 stream=- rc=0 api=a\n", "x.capture:3:16: ptr must be a hex pointer");
    assertError(HEAD + "12 7 alloc ptr=0x1 bytes=1 async=2 stream=- rc=0 api=a\n", "x.capture:3:34: async must be 0 or 1");
    assertError(HEAD + "12 7 name obj=m name=a%2\n", "x.capture:3:23: incomplete percent escape");
    assertError(HEAD + "12 7 unlock obj\n", "x.capture:3:13: expected key=value, got 'obj'");
    assertError(HEAD + "12 7 kernel corr=1 start_ns=9 end_ns=3\n", "x.capture:3:38: kernel ends");
  }

  @Test
  void mappingLinesArePositioned() throws Exception {
    Mapping m = Mapping.parse("m.map", "mutex@0x10 = compute_mtx  # the big one\nthread 4001 = gpu_worker#1\nignore alloc 1GiB\ntolerance 1%\n");
    assertThat(m.objects()).containsEntry("mutex@0x10", "compute_mtx");
    assertThat(m.threads()).containsEntry(4001L, "gpu_worker#1");
    assertThat(m.ignoredSizes()).containsExactly(1L << 30);
    assertThat(m.sizeMatches(101, 100)).isTrue();
    assertThat(m.sizeMatches(102, 100)).isFalse();
    assertThatThrownBy(() -> Mapping.parse("m.map", "\nthread x = r\n")).hasMessage("m.map:2:8: thread id must be a number, got 'x'");
    assertThatThrownBy(() -> Mapping.parse("m.map", "tolerance 200%\n")).hasMessageStartingWith("m.map:1:11: a tolerance percentage");
    assertThatThrownBy(() -> Mapping.parse("m.map", "a = b\na = c\n")).hasMessage("m.map:2:1: a is mapped twice");
  }

  @Test
  void aDeviceBufferIsAnIgnoredAllocationThatTheDesignMustDeclare() throws Exception {
    Mapping m = Mapping.parse("m.map", "# head\ndevice d_a = 4GiB\n");
    assertThat(m.ignoredSizes()).containsExactly(4L << 30);
    assertThat(m.deviceBuffers()).containsOnlyKeys("d_a");
    assertThat(m.deviceBuffers().get("d_a").line()).isEqualTo(2);
    String body = "\nmutex gpu_mtx\nrole gpu_worker x1 jobs 1\n  lock gpu_mtx\n  unlock gpu_mtx\n";
    m.checkAgainst(dev.interlock.model.design.DesignParser.parse("d", "design d\nvram 16GiB\nbuffer d_a 4GiB" + body));
    assertThatThrownBy(() -> m.checkAgainst(dev.interlock.model.design.DesignParser.parse("d", "design d\nvram 16GiB" + body)))
        .hasMessage("m.map:2:1: device d_a: design d declares no 'buffer d_a SIZE'");
    assertThatThrownBy(() -> m.checkAgainst(
        dev.interlock.model.design.DesignParser.parse("d", "design d\nvram 16GiB\nbuffer d_a 2GiB" + body)))
        .hasMessage("m.map:2:1: device d_a = 4GiB, but design d declares 'buffer d_a 2GiB'");
    assertThatThrownBy(() -> Mapping.parse("m.map", "device d_a 4GiB\n"))
        .hasMessage("m.map:1:1: expected 'device BUFFER = SIZE' (BUFFER a design's device buffer)");
    assertThatThrownBy(() -> Mapping.parse("m.map", "device d_a = 4GiB\ndevice d_a = 2GiB\n"))
        .hasMessage("m.map:2:1: device buffer d_a is mapped twice");
    assertThatThrownBy(() -> Mapping.parse("m.map", "device d_a = 4GiB\ngroup staged = 4GiB 8GiB\n"))
        .hasMessage("m.map:2:16: part 4GiB of group staged is also ignored ('device d_a' on line 1)");
  }

  private static void assertError(String text, String prefix) {
    assertThatThrownBy(() -> CaptureFormat.parse("x.capture", text)).isInstanceOf(CaptureFormatException.class)
        .hasMessageStartingWith(prefix);
  }
}
