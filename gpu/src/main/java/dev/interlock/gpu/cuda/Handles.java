package dev.interlock.gpu.cuda;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import jcuda.NativePointerObject;

/**
 * The native address of a JCuda handle (a device pointer, a stream), which JCuda keeps protected: what the device's
 * call log records, so that it names pointers and streams as a capture of the process does.
 */
final class Handles {
  private static final MethodHandle NATIVE_POINTER = nativePointer();

  private Handles() {}

  private static MethodHandle nativePointer() {
    try {
      Method m = NativePointerObject.class.getDeclaredMethod("getNativePointer");
      m.setAccessible(true);
      return MethodHandles.lookup().unreflect(m);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new ExceptionInInitializerError("JCuda's NativePointerObject.getNativePointer is not accessible: " + e);
    }
  }

  /** The handle's native address (0 for null or an unset handle). */
  static long address(NativePointerObject h) {
    if (h == null) {
      return 0;
    }
    try {
      return (long) NATIVE_POINTER.invoke(h);
    } catch (Throwable t) {
      throw new IllegalStateException("cannot read the address of " + h, t);
    }
  }
}
