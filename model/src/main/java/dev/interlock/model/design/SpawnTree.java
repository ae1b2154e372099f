package dev.interlock.model.design;

import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The task instances one job of a role can start: one node per {@code spawn} site, reached from the
 * role's body directly or through the tasks it spawns, in depth-first textual order.
 *
 * <p>A node is an instance slot: a job runs each node at most once, since bodies have no loops. The
 * model packs one task thread per node, and the engine and traces name task threads by node, so the
 * names are the same everywhere: {@code ROLE#i/TASK@J}, where J is the 1-based job number, and
 * {@code ROLE#i/TASK@J.k} for the k-th node (k from 2) of the same task in the tree.
 */
public final class SpawnTree {
  /** One spawn site: task {@code task} spawned at flattened step {@code site} of {@code parent}'s body (-1: the role's). */
  public record Node(int id, String task, int parent, int site, int ordinal) {}

  private final List<Node> nodes = new ArrayList<>();
  private final Map<Long, Integer> childAt = new HashMap<>();

  /**
   * The spawn tree of a role of design d. The design has checked the spawn relation ({@link TaskGraph}: every
   * spawned task declared, none able to spawn itself), so the walk ends.
   */
  public static SpawnTree of(Design d, Role role) {
    SpawnTree t = new SpawnTree();
    t.walk(d, -1, role.body());
    return t;
  }

  private void walk(Design d, int parent, List<Step> body) {
    List<Step> flat = Steps.flatten(body);
    for (int site = 0; site < flat.size(); site++) {
      if (flat.get(site) instanceof Spawn s) {
        Task task = d.task(s.task()).orElseThrow();
        int ordinal = (int) nodes.stream().filter(n -> n.task().equals(s.task())).count() + 1;
        Node n = new Node(nodes.size(), s.task(), parent, site, ordinal);
        nodes.add(n);
        childAt.put(key(parent, site), n.id());
        walk(d, n.id(), task.body());
      }
    }
  }

  private static long key(int parent, int site) {
    return ((long) parent << 32) | (site & 0xffffffffL);
  }

  /** All nodes, in depth-first textual order; a node's id is its index. */
  public List<Node> nodes() {
    return nodes;
  }

  /** Number of nodes: how many task threads one job can have. */
  public int size() {
    return nodes.size();
  }

  /** The node that the spawn at flattened step {@code site} of node {@code parent}'s body (-1: the role's) starts. */
  public int child(int parent, int site) {
    Integer c = childAt.get(key(parent, site));
    if (c == null) {
      throw new IllegalArgumentException("no spawn at step " + site + " of " + (parent < 0 ? "the role" : nodes.get(parent)));
    }
    return c;
  }

  /** The role thread a thread name belongs to: {@code role#i} of {@code role#i/TASK@J}, or the name itself. */
  public static String roleThreadOf(String threadName) {
    int slash = threadName.indexOf('/');
    return slash < 0 ? threadName : threadName.substring(0, slash);
  }

  /** The name of node n's thread in job {@code job} (0-based) of role thread {@code roleThread} ({@code role#i}). */
  public String threadName(String roleThread, int job, int n) {
    Node node = nodes.get(n);
    return roleThread + "/" + node.task() + "@" + (job + 1) + (node.ordinal() > 1 ? "." + node.ordinal() : "");
  }
}
