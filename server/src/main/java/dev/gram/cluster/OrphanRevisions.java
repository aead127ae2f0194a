package dev.gram.cluster;

import dev.gram.format.HistoryCodec;
import dev.gram.format.Revision;
import dev.gram.store.OrphanLog;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The revisions of several stopped nodes' logs, one list per document in revision order: a
 * document's revisions may be spread over several logs (its owner changed as nodes came and
 * went), and only together do they chain onto its file. Pure.
 *
 * <p>Two logs may hold different revisions with one number: one was acknowledged, the other
 * logged by a node that then lost the race for the head and died before cancelling it. The one
 * the next revision chains onto is put first; the owner sets aside what does not chain, never
 * drops it.
 */
final class OrphanRevisions {
  private OrphanRevisions() {}

  static Map<String, List<Revision>> merge(List<OrphanLog> logs) {
    Map<String, TreeMap<Integer, List<Revision>>> byRev = new TreeMap<>();
    for (OrphanLog o : logs) {
      o.revisionsByDocument().forEach((path, revs) -> {
        TreeMap<Integer, List<Revision>> m = byRev.computeIfAbsent(path, k -> new TreeMap<>());
        for (Revision r : revs) {
          List<Revision> at = m.computeIfAbsent(r.rev(), k -> new ArrayList<>());
          if (at.stream().noneMatch(x -> x.chain().equals(r.chain()))) {
            at.add(r);
          }
        }
      });
    }
    Map<String, List<Revision>> out = new LinkedHashMap<>();
    byRev.forEach((path, m) -> {
      List<Revision> list = new ArrayList<>();
      m.forEach((rev, variants) -> {
        List<Revision> next = m.getOrDefault(rev + 1, List.of());
        List<Revision> ordered = new ArrayList<>(variants);
        ordered.sort(Comparator.comparing(v -> next.stream().anyMatch(n -> chainsOnto(v, n)) ? 0 : 1));
        list.addAll(ordered);
      });
      out.put(path, list);
    });
    return out;
  }

  private static boolean chainsOnto(Revision before, Revision next) {
    return HistoryCodec.chain(before.chain(), next).equals(next.chain());
  }
}
