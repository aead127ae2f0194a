package dev.gram.cluster;

import com.hazelcast.map.EntryProcessor;
import java.util.Map;

/**
 * Compare-and-set of a document's head in a Hazelcast map, run by Hazelcast on the member that
 * owns the key's partition, one at a time per partition and never during that partition's
 * migration: the fence that keeps two nodes from committing on one base while ownership moves.
 * Values are {@code <rev>:<chain>}.
 *
 * <p>A missing entry, or one behind the expected head (revisions that reached the document from
 * a dead node's log, or a map entry lost with its member and its backup), accepts; an entry at the
 * expected revision with another chain, or ahead of it, refuses.
 */
record HeadAdvance(int fromRev, String fromChain, String to) implements EntryProcessor<String, String, Boolean> {
  private static final long serialVersionUID = 1L;

  static String head(int rev, String chain) {
    return rev + ":" + chain;
  }

  @Override
  public Boolean process(Map.Entry<String, String> entry) {
    String current = entry.getValue();
    if (current != null) {
      int colon = current.indexOf(':');
      int rev = Integer.parseInt(current.substring(0, colon));
      if (rev > fromRev || (rev == fromRev && !current.substring(colon + 1).equals(fromChain))) {
        return false;
      }
    }
    entry.setValue(to);
    return true;
  }
}
