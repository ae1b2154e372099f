package dev.interlock.model.export;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.RoleResources;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.SpawnTree;
import dev.interlock.model.step.Alloc;
import java.util.List;

/**
 * What one worker of a role holds in the exported model, named and indexed as the model's worker layout does: its
 * job buffers (per job frame), kept buffers, events, spawn records and task threads, and the Promela arrays of them.
 *
 * <p>A role that spawns nothing has one frame; one that spawns has a frame per job, since a job's tasks may outlive
 * the job's thread. Buffer names are per worker: the role's and its tasks' allocations of one name share a slot.
 */
final class RoleShape {
  final int index;
  final Role role;
  final SpawnTree tree;
  final int workers;
  final int jobs;
  final int frames;
  final int nodes;
  final List<String> jobBuffers;
  final List<List<Alloc>> jobAllocs;
  final List<String> keptBuffers;
  final List<List<Alloc>> keptAllocs;
  final List<String> events;
  final List<String> tasks;
  /** Per job or kept buffer: the value that marks it missing, or 0, as in the model ({@link RoleResources#jobMissing}). */
  final long[] jobMissing;
  final long[] keptMissing;
  /** The first thread number of this role's first worker; a worker has {@link #threadsPerWorker} threads. */
  final int firstThread;

  RoleShape(Design d, int index, int firstThread) {
    this.index = index;
    this.role = d.roles().get(index);
    this.tree = SpawnTree.of(d, role);
    this.workers = role.threads();
    this.jobs = role.jobs();
    this.nodes = tree.size();
    this.frames = nodes == 0 ? 1 : jobs;
    this.firstThread = firstThread;
    RoleResources used = RoleResources.of(d, role, tree);
    jobBuffers = used.jobBuffers();
    jobAllocs = used.jobAllocs();
    keptBuffers = used.keptBuffers();
    keptAllocs = used.keptAllocs();
    events = used.events();
    tasks = used.tasks();
    jobMissing = used.jobMissing().stream().mapToLong(Long::longValue).toArray();
    keptMissing = used.keptMissing().stream().mapToLong(Long::longValue).toArray();
  }

  /** Promela for "buffer field {@code f} holds a live buffer": set, and not the missing mark {@code missing}. */
  static String live(String f, long missing) {
    return missing == 0 ? f + " != 0" : "(" + f + " != 0 && " + f + " != " + missing + ")";
  }

  int threadsPerWorker() {
    return 1 + frames * nodes;
  }

  int threads() {
    return workers * threadsPerWorker();
  }

  String name() {
    return "r" + index;
  }

  /** The Promela array of job buffers: per worker, frame and buffer, 0 or which allocation (1-based) made it. */
  String buf(String frame, int b) {
    return name() + "_buf[(w*" + frames + "+" + frame + ")*" + jobBuffers.size() + "+" + b + "]";
  }

  String kept(int k) {
    return name() + "_kept[w*" + keptBuffers.size() + "+" + k + "]";
  }

  String event(String frame, int e) {
    return name() + "_ev[(w*" + frames + "+" + frame + ")*" + events.size() + "+" + e + "]";
  }

  /** Ordinal (1-based) among its task's nodes of the node of task {@code task} the frame spawned last, or 0. */
  String last(String frame, int task) {
    return name() + "_last[(w*" + frames + "+" + frame + ")*" + tasks.size() + "+" + task + "]";
  }

  /** Status of node n's task thread in a frame: 0 not started, 1 running, 2 done (the model's IDLE, RUNNING, DONE). */
  String status(String frame, int n) {
    return name() + "_st[(w*" + frames + "+" + frame + ")*" + nodes + "+" + n + "]";
  }

  /** Jobs the worker's role thread has finished. */
  String job() {
    return name() + "_job[w]";
  }

  /** Node ids of task {@code task}, in ordinal order. */
  int[] taskNodes(int task) {
    String name = tasks.get(task);
    return tree.nodes().stream().filter(n -> n.task().equals(name)).mapToInt(SpawnTree.Node::id).toArray();
  }
}
