package dev.interlock.model.step;

/**
 * {@code sync stream}: cudaStreamSynchronize of the thread's own stream.
 *
 * <p>It waits for nothing another thread does (a thread's kernels have ended when it moves on),
 * and lets the pool release the bytes this thread freed asynchronously, down to its threshold.
 */
public record SyncStream() implements Step {
  @Override
  public <R> R accept(Visitor<R> v) {
    return v.syncStream(this);
  }

  @Override
  public String text() {
    return "sync stream";
  }
}
