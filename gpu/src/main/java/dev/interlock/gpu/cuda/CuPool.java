package dev.interlock.gpu.cuda;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import dev.interlock.impl.api.DeviceCall;
import dev.interlock.impl.device.DeviceCallLog;
import jcuda.driver.CUmemPool_attribute;

/** The memory-pool calls JCuda 12.6.0 does not bind, through JNA on the same libcuda.so.1. */
final class CuPool {
  /** The driver functions used, as JNA maps them. */
  interface Cu extends Library {
    int cuDeviceGetDefaultMemPool(PointerByReference pool, int dev);

    int cuMemPoolSetAttribute(Pointer pool, int attr, Pointer value);

    int cuMemPoolGetAttribute(Pointer pool, int attr, Pointer value);

    int cuMemPoolTrimTo(Pointer pool, long keep);
  }

  private final Cu cu;
  private final Pointer pool;
  private final DeviceCallLog log;

  private CuPool(Cu cu, Pointer pool, DeviceCallLog log) {
    this.cu = cu;
    this.pool = pool;
    this.log = log;
  }

  /**
   * The default pool of device {@code ordinal}, with its release threshold set to 0, CUDA's default and the model's
   * (set, not assumed: the pool outlives a closed device in the same process, with whatever threshold it had). Its
   * trims and threshold settings are logged in {@code log}.
   */
  static CuPool defaultPool(int ordinal, DeviceCallLog log) {
    Cu cu = Native.load("libcuda.so.1", Cu.class);
    PointerByReference ref = new PointerByReference();
    check(cu.cuDeviceGetDefaultMemPool(ref, ordinal), "cuDeviceGetDefaultMemPool");
    CuPool p = new CuPool(cu, ref.getValue(), log);
    p.threshold(0);
    return p;
  }

  /** Sets the release threshold; {@code Long.MAX_VALUE} stands for max (UINT64_MAX). */
  void threshold(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("release threshold must not be negative, got " + bytes);
    }
    Memory v = new Memory(8);
    v.setLong(0, bytes == Long.MAX_VALUE ? -1L : bytes);
    int rc = cu.cuMemPoolSetAttribute(pool, CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, v);
    log.add(DeviceCall.Kind.POOL_THRESHOLD, "cuMemPoolSetAttribute", 0, bytes, 0, false, 0, "", rc);
    check(rc, "cuMemPoolSetAttribute");
  }

  /** The release threshold as the driver reports it; UINT64_MAX (max) reads as {@code Long.MAX_VALUE}. */
  long threshold() {
    long t = attribute(CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD);
    return t < 0 ? Long.MAX_VALUE : t;
  }

  /** Bytes the pool holds from the device (reserved). */
  long reserved() {
    return attribute(CUmemPool_attribute.CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
  }

  /** Bytes of the pool in live allocations. */
  long used() {
    return attribute(CUmemPool_attribute.CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
  }

  /**
   * cudaMemPoolTrimTo(0). Bytes whose asynchronous free the host has not yet seen complete may count as outstanding
   * and stay (CUDA's documentation); {@link CudaDevice#trim()} synchronizes those frees' events first.
   */
  void trim() {
    int rc = cu.cuMemPoolTrimTo(pool, 0);
    log.add(DeviceCall.Kind.TRIM, "cuMemPoolTrimTo", 0, 0, 0, false, 0, "", rc);
    check(rc, "cuMemPoolTrimTo");
  }

  private long attribute(int attr) {
    Memory m = new Memory(8);
    m.setLong(0, 0);
    check(cu.cuMemPoolGetAttribute(pool, attr, m), "cuMemPoolGetAttribute");
    return m.getLong(0);
  }

  static void check(int rc, String call) {
    if (rc != 0) {
      throw new CudaException(call, rc);
    }
  }
}
