package dev.interlock.observe;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The names a captured run gives its objects and threads, under a mapping file: what a lock or a thread is called
 * wherever a capture is shown.
 */
public final class CaptureNames {
  private final Mapping map;
  private final Map<String, String> nvtx = new HashMap<>();
  private final Map<Long, String> threads = new HashMap<>();

  private CaptureNames(Capture capture, Mapping map) {
    this.map = map;
    for (CaptureEvent e : capture.events()) {
      if (e instanceof CaptureEvent.Name n) {
        nvtx.put(n.obj(), n.name());
      } else if (e instanceof CaptureEvent.ThreadName n) {
        threads.put(n.named(), n.name()); // the last name a thread was given
      }
    }
  }

  /** The names in {@code capture}, with {@code map}'s ({@link Mapping#NONE}: the capture's own). */
  public static CaptureNames of(Capture capture, Mapping map) {
    return new CaptureNames(capture, map);
  }

  /** An object's name: the mapping file's, else its NVTX name (itself mapped), else the object ({@code mutex@0x...}). */
  public String object(String obj) {
    String direct = map.objects().get(obj);
    if (direct != null) {
      return direct;
    }
    String name = nvtx.get(obj);
    return name == null ? obj : map.objects().getOrDefault(name, name);
  }

  /** Whether the mapping file or NVTX gives {@code obj} a name. */
  public boolean named(String obj) {
    return !object(obj).equals(obj);
  }

  /** An OS thread's name: the mapping file's {@code thread} line, else its last thread_name record. */
  public Optional<String> thread(long tid) {
    return Optional.ofNullable(map.threads().getOrDefault(tid, threads.get(tid)));
  }
}
