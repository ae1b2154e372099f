package dev.interlock.model.export;

import dev.interlock.model.design.Design;

/**
 * The Promela of device memory: live bytes, and with a pool the cached and settled bytes per stream, following
 * {@link dev.interlock.model.state.DeviceMemory}'s rules step for step, in units. Statements for one transition; the
 * helpers' temporaries are {@code hidden} globals, outside the state vector.
 *
 * <p>A design without async allocations has no pool: an alloc fails when live plus requested units exceed vram, and
 * syncs and trims change no memory (as in the model).
 */
final class PoolCode {
  /** Whether some step allocates asynchronously: only then are there caches. */
  final boolean pool;
  private final int streams;
  private final boolean thresholdMax;
  private final long threshold;

  PoolCode(Design d, Units u, boolean pool, int streams) {
    this.pool = pool;
    this.streams = streams;
    this.thresholdMax = d.poolThreshold() >= d.vram();
    this.threshold = thresholdMax ? 0 : u.of(d.poolThreshold());
  }

  /** Global declarations. */
  String declarations() {
    if (!pool) {
      return "";
    }
    return "int liveAsync = 0;          /* units of live buffers allocated async */\n"
        + "int cache = 0;              /* units the pool caches, all streams (derived) */\n"
        + "int cached[" + streams + "];            /* per stream (thread): units it freed async that the pool keeps */\n"
        + "int settled[" + streams + "];           /* per stream: the part of cached a synchronization has seen freed */\n"
        + "hidden int need, r_, excess, best;\n"
        + "hidden byte i_;\n"
        + (thresholdMax ? "/* pool release threshold: max (a synchronization releases nothing) */\n"
            : "#define THRESHOLD " + threshold + "  /* pool release threshold, units */\n");
  }

  /** Units that cudaMemGetInfo reports free. */
  String free() {
    return pool ? "(VRAM - live - cache)" : "(VRAM - live)";
  }

  /**
   * An allocation of {@code units} on stream {@code s}: on success {@code onSuccess} runs after the memory moved, on
   * failure the OOM assertion fails.
   */
  String alloc(long units, boolean async, String s, String onSuccess) {
    return alloc(units, async, s, onSuccess, "assert(OOM)");
  }

  /**
   * An allocation of {@code units} on stream {@code s}: on success {@code onSuccess} runs after the memory moved, on
   * failure {@code onFailure}, after the memory moved as {@link #afterFailedAlloc} says (for a plain allocation in a
   * pool, the settled bytes released before the second look).
   */
  String alloc(long units, boolean async, String s, String onSuccess, String onFailure) {
    if (!pool) {
      return "if :: live + " + units + " > VRAM -> " + onFailure + " :: else -> live = live + " + units + "; "
          + onSuccess + " fi";
    }
    if (async) {
      return "if :: live + " + units + " > VRAM -> " + afterFailedAlloc(units, true, s) + " " + onFailure
          + " :: else -> need = " + units + "; take(" + s + "); live = live + " + units + "; liveAsync = liveAsync + "
          + units + "; " + onSuccess + " fi";
    }
    return "if :: live + cache + " + units + " > VRAM -> releaseSettled() :: else fi; if :: live + cache + " + units
        + " > VRAM -> " + onFailure + " :: else -> live = live + " + units + "; " + onSuccess + " fi";
  }

  /**
   * Whether an allocation of {@code units} succeeds, as a side-effect-free expression (a guard): beside the live units,
   * and for a plain one in a pool beside the cache once the settled units are released.
   */
  String fits(long units, boolean async) {
    if (!pool || async) {
      return "live + " + units + " <= VRAM";
    }
    StringBuilder settled = new StringBuilder();
    for (int i = 0; i < streams; i++) {
      settled.append(i == 0 ? "" : " + ").append("settled[").append(i).append("]");
    }
    return "(live + cache + " + units + " <= VRAM || live + cache - (" + settled + ") + " + units + " <= VRAM)";
  }

  /**
   * The device after an allocation of {@code units} on stream {@code s} failed, as
   * {@link dev.interlock.model.state.DeviceMemory#afterFailedAlloc}: a plain one released the settled units; an async
   * one grew the stream's cache to the whole free device, then the pool released down to its threshold as at a device
   * synchronization.
   */
  String afterFailedAlloc(long units, boolean async, String s) {
    if (!pool) {
      return "skip;";
    }
    if (async) {
      return "r_ = VRAM - live - cache; cached[" + s + "] = cached[" + s + "] + r_; cache = cache + r_; syncDevice();";
    }
    return "releaseSettled();";
  }

  /** A free of a live buffer of {@code units} on stream {@code s}. */
  String free(long units, boolean async, String s) {
    if (async) {
      return "live = live - " + units + "; liveAsync = liveAsync - " + units + "; cached[" + s + "] = cached[" + s
          + "] + " + units + "; cache = cache + " + units + ";";
    }
    return "live = live - " + units + ";";
  }

  String trim() {
    return pool ? "trim();" : "skip;";
  }

  String synchronizeDevice() {
    return pool ? "syncDevice();" : "skip;";
  }

  String synchronizeStream(String s) {
    return pool ? "syncStream(" + s + ");" : "skip;";
  }

  /** The inline helpers. */
  String inlines() {
    if (!pool) {
      return "";
    }
    String excess = thresholdMax ? "excess = -1"
        : "excess = cache - (THRESHOLD - liveAsync > 0 -> THRESHOLD - liveAsync : 0)";
    String n = String.valueOf(streams);
    return """
        /* DeviceMemory.take: need units from stream s's cache, then best fit, else most cached, of the others */
        inline take(s) {
          r_ = (need < cached[s] -> need : cached[s]); cached[s] = cached[s] - r_; cache = cache - r_;
          settled[s] = (settled[s] < cached[s] -> settled[s] : cached[s]); need = need - r_;
          do
          :: need > 0 ->
             best = -1; i_ = 0;
             do :: i_ < N -> if :: i_ != s && cached[i_] >= need && (best < 0 || cached[i_] < cached[best]) -> best = i_ :: else fi; i_++
                :: else -> break od;
             if :: best < 0 -> i_ = 0;
                   do :: i_ < N -> if :: i_ != s && (best < 0 || cached[i_] > cached[best]) -> best = i_ :: else fi; i_++
                      :: else -> break od
                :: else fi;
             if :: best < 0 -> break :: else fi;
             if :: cached[best] == 0 -> break :: else fi;
             r_ = (need < cached[best] -> need : cached[best]); cached[best] = cached[best] - r_; cache = cache - r_;
             settled[best] = (settled[best] < cached[best] -> settled[best] : cached[best]); need = need - r_
          :: else -> break
          od
        }
        /* a plain alloc that does not fit beside the cache: the driver releases every settled byte */
        inline releaseSettled() {
          i_ = 0;
          do :: i_ < N -> cached[i_] = cached[i_] - settled[i_]; cache = cache - settled[i_]; settled[i_] = 0; i_++
             :: else -> break od
        }
        inline trim() {
          i_ = 0;
          do :: i_ < N -> cached[i_] = 0; settled[i_] = 0; i_++ :: else -> break od;
          cache = 0
        }
        /* cudaDeviceSynchronize: release down to the threshold, most cached stream first; all settled */
        inline syncDevice() {
          EXCESS;
          do
          :: excess > 0 ->
             best = -1; i_ = 0;
             do :: i_ < N -> if :: best < 0 || cached[i_] > cached[best] -> best = i_ :: else fi; i_++
                :: else -> break od;
             r_ = (excess < cached[best] -> excess : cached[best]); cached[best] = cached[best] - r_;
             cache = cache - r_; excess = excess - r_
          :: else -> break
          od;
          i_ = 0;
          do :: i_ < N -> settled[i_] = cached[i_]; i_++ :: else -> break od
        }
        /* cudaStreamSynchronize (or the host seeing one of its kernels end): release only from its own cache */
        inline syncStream(s) {
          EXCESS;
          if
          :: cached[s] == settled[s] && (excess <= 0 || cached[s] == 0) -> skip
          :: else ->
             r_ = (excess < cached[s] -> excess : cached[s]); r_ = (r_ > 0 -> r_ : 0);
             cached[s] = cached[s] - r_; cache = cache - r_; settled[s] = cached[s]
          fi
        }
        """.replace("EXCESS", excess).replace("i_ < N", "i_ < " + n);
  }
}
