package dev.interlock.model.step;

/**
 * One line of a role's body: what a thread does next.
 *
 * <p>Java 17 has no pattern matching in switch, so consumers implement {@link Visitor}: it has one
 * method per step kind, and adding a kind breaks every visitor at compile time.
 */
public sealed interface Step permits Lock, Unlock, Acquire, Release, Alloc, Free, Trim, Sync, SyncStream, Interval, IfFree,
    Choose, Spawn, Join, Signal, Wait {

  /** The step as it is written in a design file, without comment, e.g. {@code alloc staged 12GiB}. */
  String text();

  /** Calls the visitor method for this step's kind. */
  <R> R accept(Visitor<R> v);

  /** An exhaustive case analysis over step kinds. */
  interface Visitor<R> {
    R lock(Lock s);

    R unlock(Unlock s);

    R acquire(Acquire s);

    R release(Release s);

    R alloc(Alloc s);

    R free(Free s);

    R trim(Trim s);

    R sync(Sync s);

    R kernel(Kernel s);

    R cpu(Cpu s);

    R syncStream(SyncStream s);

    R ifFree(IfFree s);

    R choose(Choose s);

    R spawn(Spawn s);

    R join(Join s);

    R signal(Signal s);

    R await(Wait s);
  }
}
