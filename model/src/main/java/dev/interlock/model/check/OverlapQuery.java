package dev.interlock.model.check;

import dev.interlock.model.step.Names;

/** "Can one thread be inside interval a while another thread is inside interval b?" */
public record OverlapQuery(String a, String b) {
  public OverlapQuery {
    Names.require("interval", a);
    Names.require("interval", b);
  }
}
