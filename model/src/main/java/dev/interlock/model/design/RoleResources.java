package dev.interlock.model.design;

import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.model.step.Wait;
import java.util.ArrayList;
import java.util.List;

/**
 * The buffers, events and tasks a worker of one role uses, in first-use order over its body and then its spawned tasks'
 * bodies: the one naming that the model's state layout and every export of a design share.
 *
 * @param jobBuffers  buffers that live in a job frame: allocated without {@code keep}, or only freed or used (not
 *                    resident), so that a free or use of a buffer never allocated has a slot to be checked against
 * @param jobAllocs   per job buffer, its distinct alloc steps (as trace lines hold them: without {@code on oom})
 * @param keptBuffers buffers allocated with {@code keep}, released after the worker's last job
 * @param keptAllocs  per kept buffer, its distinct alloc steps
 * @param events      events signalled or waited for
 * @param tasks       tasks spawned, each once, in spawn-tree order
 * @param jobMissing  per job buffer, the value that marks it missing (an allocation of it failed and
 *                    {@code on oom ignore} let the job go on without it): one past its allocs' values; 0 when no alloc
 *                    of it ignores a failure
 * @param keptMissing the same per kept buffer
 */
public record RoleResources(List<String> jobBuffers, List<List<Alloc>> jobAllocs, List<String> keptBuffers,
    List<List<Alloc>> keptAllocs, List<String> events, List<String> tasks, List<Long> jobMissing,
    List<Long> keptMissing) {
  public RoleResources {
    jobBuffers = List.copyOf(jobBuffers);
    jobAllocs = jobAllocs.stream().map(List::copyOf).toList();
    keptBuffers = List.copyOf(keptBuffers);
    keptAllocs = keptAllocs.stream().map(List::copyOf).toList();
    events = List.copyOf(events);
    tasks = List.copyOf(tasks);
    jobMissing = List.copyOf(jobMissing);
    keptMissing = List.copyOf(keptMissing);
    if (jobBuffers.size() != jobAllocs.size() || keptBuffers.size() != keptAllocs.size()) {
      throw new IllegalArgumentException("one list of alloc steps per buffer");
    }
    if (jobBuffers.size() != jobMissing.size() || keptBuffers.size() != keptMissing.size()) {
      throw new IllegalArgumentException("one missing mark per buffer");
    }
  }

  /** The resources of {@code role}'s workers in {@code design}, whose spawn tree is {@code tree}. */
  public static RoleResources of(Design design, Role role, SpawnTree tree) {
    List<String> jobBuffers = new ArrayList<>();
    List<List<Alloc>> jobAllocs = new ArrayList<>();
    List<String> keptBuffers = new ArrayList<>();
    List<List<Alloc>> keptAllocs = new ArrayList<>();
    List<String> events = new ArrayList<>();
    List<String> tasks = new ArrayList<>();
    List<List<Step>> bodies = new ArrayList<>();
    bodies.add(role.body());
    for (SpawnTree.Node n : tree.nodes()) {
      bodies.add(design.task(n.task()).orElseThrow().body());
      if (!tasks.contains(n.task())) {
        tasks.add(n.task());
      }
    }
    List<String> resident = design.buffers().stream().map(ResidentBuffer::name).toList();
    for (List<Step> body : bodies) {
      Steps.forEach(body, s -> {
        if (s instanceof Alloc a) {
          List<String> names = a.keep() ? keptBuffers : jobBuffers;
          List<List<Alloc>> allocs = a.keep() ? keptAllocs : jobAllocs;
          int i = names.indexOf(a.buffer());
          if (i < 0) {
            names.add(a.buffer());
            allocs.add(new ArrayList<>());
            i = names.size() - 1;
          }
          if (!allocs.get(i).contains(a.header())) {
            allocs.get(i).add(a.header());
          }
        } else if (s instanceof Signal sig && !events.contains(sig.event())) {
          events.add(sig.event());
        } else if (s instanceof Wait w && !events.contains(w.event())) {
          events.add(w.event());
        }
      });
    }
    for (List<Step> body : bodies) {
      Steps.forEach(body, s -> {
        List<String> named = s instanceof Free f ? List.of(f.buffer()) : s instanceof Kernel k ? k.uses() : List.of();
        for (String b : named) {
          if (!resident.contains(b) && !keptBuffers.contains(b) && !jobBuffers.contains(b)) {
            jobBuffers.add(b);
            jobAllocs.add(new ArrayList<>());
          }
        }
      });
    }
    Long[] jobMissing = new Long[jobBuffers.size()];
    Long[] keptMissing = new Long[keptBuffers.size()];
    java.util.Arrays.fill(jobMissing, 0L);
    java.util.Arrays.fill(keptMissing, 0L);
    for (List<Step> body : bodies) {
      Steps.forEach(body, s -> {
        if (s instanceof Alloc a && a.onOom() instanceof OnOom.Ignore) {
          int i = (a.keep() ? keptBuffers : jobBuffers).indexOf(a.buffer());
          (a.keep() ? keptMissing : jobMissing)[i] = (long) (a.keep() ? keptAllocs : jobAllocs).get(i).size() + 1;
        }
      });
    }
    return new RoleResources(jobBuffers, jobAllocs, keptBuffers, keptAllocs, events, tasks, List.of(jobMissing),
        List.of(keptMissing));
  }
}
