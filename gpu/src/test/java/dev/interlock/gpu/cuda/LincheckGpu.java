package dev.interlock.gpu.cuda;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import jcuda.driver.CUstream;
import kotlin.jvm.functions.Function1;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;

/**
 * The one CudaDevice of a Lincheck GPU test's JVM, opened once (before Lincheck runs) and reset by each test instance,
 * since Lincheck makes a new instance per invocation.
 *
 * <p>Test instances reach the device only through this class, which Lincheck's model checking ignores: Lincheck saves
 * what test code reaches through static fields and restores it after every invocation, and restoring the device's
 * Java side (its live buffers, its counters) while the driver keeps its own state would split the two. The driver's
 * calls (JCuda, JNA, the pool) are each one atomic step: Lincheck may switch threads before one, not inside it.
 */
final class LincheckGpu {
  private static CudaDevice device;
  private static CUstream kernels;

  private LincheckGpu() {}

  /** Opens the device with a budget of {@code vram} bytes, where a GPU is (JUnit's {@code @BeforeAll}). */
  static void open(long vram) {
    if (device == null && CudaDevice.unavailable().isEmpty()) {
      device = CudaDevice.open(vram);
      kernels = device.newStream();
      System.out.printf("[interlock] Lincheck on %s (slack %d B)%n", device.description(), device.slack());
    }
  }

  /** The device, or null where there is no GPU. */
  static CudaDevice device() {
    return device;
  }

  /** A stream of its own for kernels that must synchronize no stream a test frees on. */
  static CUstream kernelStream() {
    return kernels;
  }

  /** Closes the device (JUnit's {@code @AfterAll}). */
  static void close() {
    if (device != null) {
      device.close();
      device = null;
      kernels = null;
    }
  }

  /** This class left out of the analysis; the driver's calls atomic. */
  static ManagedStrategyGuarantee[] guarantees() {
    Function1<String, Boolean> driver = name -> name.startsWith("jcuda.") || name.startsWith("com.sun.jna.")
        || name.equals(CuPool.class.getName()) || name.startsWith(CuPool.class.getName() + "$");
    return new ManagedStrategyGuarantee[] {
        forClasses(LincheckGpu.class.getName()).allMethods().ignore(),
        forClasses(driver).allMethods().treatAsAtomic()};
  }
}
