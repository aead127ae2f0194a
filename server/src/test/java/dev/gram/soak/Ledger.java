package dev.gram.soak;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the server promised over the whole soak: every acknowledged patch (by request_id) and
 * create (by path), the request_ids whose outcome the writers never learned, and a count of every
 * answer that was not a success, by when it came. Written by the writers, read by the checks
 * between cuts.
 */
final class Ledger {
  /** An acknowledged gram_patch: its request_id must be in {@code path} exactly once. */
  record Patch(String path, String requestId, String recordId, int rev, int cut) {}

  /** An acknowledged gram_create: {@code path} must exist and hold {@code recordId}. */
  record Create(String path, String recordId, int cut) {}

  /** When an answer came: while the file system was there, or after LazyFS had died. */
  enum Phase {
    FS_UP("file system up"),
    FS_GONE("file system gone");

    final String label;

    Phase(String label) {
      this.label = label;
    }
  }

  final Map<String, Patch> patches = new ConcurrentHashMap<>();
  final Map<String, Create> creates = new ConcurrentHashMap<>();
  /** request_ids sent but never acknowledged: each may be in its document, at most once. */
  final Set<String> unsettled = ConcurrentHashMap.newKeySet();
  private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();

  void acknowledged(Patch p) {
    patches.put(p.requestId(), p);
    unsettled.remove(p.requestId());
  }

  void created(Create c) {
    creates.put(c.path(), c);
  }

  /** Counts an answer, e.g. {@code gram_patch COMMIT_UNKNOWN: Marker observed but…}. */
  void answered(Phase phase, String tool, String what) {
    answers.computeIfAbsent(phase.label + " | " + tool + " " + what, k -> new LongAdder()).increment();
  }

  /** The answers counted so far, and starts counting afresh (one cut's worth at a time). */
  Map<String, Long> takeAnswers() {
    Map<String, Long> out = new TreeMap<>();
    for (String k : Set.copyOf(answers.keySet())) {
      LongAdder n = answers.remove(k);
      if (n != null) {
        out.merge(k, n.sum(), Long::sum);
      }
    }
    return out;
  }

  int acknowledgedWrites() {
    return patches.size() + creates.size();
  }
}
