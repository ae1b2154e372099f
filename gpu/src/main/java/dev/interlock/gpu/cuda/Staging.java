package dev.interlock.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoHAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;

import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.device.DeviceCallLog;

import java.nio.ByteOrder;
import java.nio.LongBuffer;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUstream;

/**
 * One thread's pinned host memory for copies to and from the device, in two halves: while the copy engine moves one
 * half, the thread fills (or empties) the other, so the host's copying and the PCIe transfer overlap; each half is
 * filled or emptied in parts on a few threads ({@link HostCopies}).
 *
 * <p>Not thread-safe: each copying thread has its own (with its own stream). Each transfer ends with its stream
 * synchronized, so no copy is in flight between calls.
 */
final class Staging {
  /**
   * Longs per half: 16 MiB, rounded down to a multiple of 24 so that neither G1 (12 longs) nor G2 affine points (24)
   * ever straddle two.
   */
  static final int HALF_LONGS = HostCopies.ALIGN * ((16 << 20) / Long.BYTES / HostCopies.ALIGN);

  /**
   * Writes longs [from, from + count) of some source into {@code into}, from its position. Called for disjoint ranges
   * from several threads at once; ranges start and end on multiples of {@value HostCopies#ALIGN} longs.
   */
  @FunctionalInterface
  interface Filler {
    void fill(LongBuffer into, long from, int count);
  }

  /** Pinned bytes per staging: both halves. */
  static final long BYTES = 2L * HALF_LONGS * Long.BYTES;

  private final Pointer host;
  private final LongBuffer[] halves = new LongBuffer[2];
  private final CUevent[] moved = {new CUevent(), new CUevent()};
  private int eventsCreated;

  private final HostCopies copies;
  private final DeviceCallLog log;

  private Staging(Pointer host, HostCopies copies, DeviceCallLog log) {
    this.host = host;
    this.copies = copies;
    this.log = log;
    LongBuffer all = host.getByteBuffer(0, BYTES).order(ByteOrder.nativeOrder()).asLongBuffer();
    halves[0] = all.slice(0, HALF_LONGS);
    halves[1] = all.slice(HALF_LONGS, HALF_LONGS);
  }

  /**
   * Pinned memory for both halves and their events, filled and emptied on {@code copies}' threads; the caller frees it
   * with {@link #free()}. Its stream synchronizations are logged in {@code log}.
   */
  static Staging allocate(HostCopies copies, DeviceCallLog log) {
    Pointer host = new Pointer();
    CudaDevice.check(cuMemAllocHost(host, BYTES), "cuMemAllocHost");
    Staging st = new Staging(host, copies, log);
    try {
      for (CUevent e : st.moved) {
        CudaDevice.check(cuEventCreate(e, CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate");
        st.eventsCreated++;
      }
    } catch (RuntimeException e) {
      st.free();
      throw e;
    }
    return st;
  }

  /** Copies count longs to dst on stream s, each half's share written by {@code fill}; returns when they are there. */
  void upload(CUdeviceptr dst, long count, Filler fill, CUstream s) {
    drained(s, () -> uploadChunks(dst, count, fill, s));
  }

  private void uploadChunks(CUdeviceptr dst, long count, Filler fill, CUstream s) {
    for (long done = 0, c = 0; done < count; done += HALF_LONGS, c++) {
      int k = (int) (c & 1);
      int n = (int) Math.min(HALF_LONGS, count - done);
      if (c >= 2) { // the copy that last read this half is done
        CudaDevice.check(cuEventSynchronize(moved[k]), "cuEventSynchronize");
      }
      LongBuffer half = halves[k];
      long start = done;
      copies.run(n, (off, len) -> {
        LongBuffer part = half.slice(off, len);
        fill.fill(part, start + off, len);
        if (part.position() != len) {
          throw new IllegalStateException("filler wrote " + part.position() + " longs, " + len + " expected");
        }
      });
      CudaDevice.check(cuMemcpyHtoDAsync(dst.withByteOffset(done * Long.BYTES), half(k), (long) n * Long.BYTES, s),
          "cuMemcpyHtoDAsync");
      CudaDevice.check(cuEventRecord(moved[k], s), "cuEventRecord");
    }
  }

  /** Copies count longs from src into dst[0, count) on stream s, reading one half while the other fills. */
  void download(long[] dst, CUdeviceptr src, int count, CUstream s) {
    drained(s, () -> downloadChunks(dst, src, count, s));
  }

  /**
   * Runs a transfer, then waits until no copy of it is in flight on s, so that the halves may be reused or freed even
   * when it failed part way; a failure to wait is reported only when the transfer itself did not fail.
   */
  private void drained(CUstream s, Runnable transfer) {
    boolean finished = false;
    try {
      transfer.run();
      finished = true;
    } finally {
      int status = cuStreamSynchronize(s);
      log.plain(DeviceCall.Kind.SYNC_STREAM, "cuStreamSynchronize", Handles.address(s), status);
      if (finished) {
        CudaDevice.check(status, "cuStreamSynchronize");
      }
    }
  }

  private void downloadChunks(long[] dst, CUdeviceptr src, int count, CUstream s) {
    int chunks = (int) (((long) count + HALF_LONGS - 1) / HALF_LONGS);
    for (int c = 0; c < Math.min(2, chunks); c++) {
      startDownload(c, src, count, s);
    }
    for (int c = 0; c < chunks; c++) {
      int k = c & 1;
      CudaDevice.check(cuEventSynchronize(moved[k]), "cuEventSynchronize");
      LongBuffer half = halves[k];
      int start = c * HALF_LONGS;
      copies.run(Math.min(HALF_LONGS, count - start), (off, len) -> half.slice(off, len).get(dst, start + off, len));
      if (c + 2 < chunks) {
        startDownload(c + 2, src, count, s);
      }
    }
  }

  private void startDownload(int c, CUdeviceptr src, int count, CUstream s) {
    int k = c & 1;
    long at = (long) c * HALF_LONGS;
    int n = (int) Math.min(HALF_LONGS, count - at);
    CudaDevice.check(cuMemcpyDtoHAsync(half(k), src.withByteOffset(at * Long.BYTES), (long) n * Long.BYTES, s),
        "cuMemcpyDtoHAsync");
    CudaDevice.check(cuEventRecord(moved[k], s), "cuEventRecord");
  }

  private Pointer half(int k) {
    return host.withByteOffset((long) k * HALF_LONGS * Long.BYTES);
  }

  /** Frees the pinned memory and the events (the device's context must be current). */
  void free() {
    for (int i = 0; i < eventsCreated; i++) {
      cuEventDestroy(moved[i]);
    }
    cuMemFreeHost(host);
  }
}
