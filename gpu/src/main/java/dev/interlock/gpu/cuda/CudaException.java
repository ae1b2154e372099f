package dev.interlock.gpu.cuda;

import jcuda.driver.CUresult;

/** A CUDA driver call that failed for a reason the model does not name (not out of memory). */
public final class CudaException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;

  public CudaException(String call, int code) {
    super(call + " failed: " + CUresult.stringFor(code) + " (" + code + ")");
    this.code = code;
  }

  public int code() {
    return code;
  }
}
