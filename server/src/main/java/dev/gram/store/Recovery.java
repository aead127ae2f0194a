package dev.gram.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the write-ahead log held at start, kept until each document is loaded and replays its
 * share ({@link Replay}, docs/gram-format.md §14.4): the records by document, the documents its
 * damage names, and damage it could not attribute.
 */
final class Recovery {
  private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

  /** Where set-aside revisions go, and why. */
  interface SetAside {
    void setAside(String path, List<dev.gram.format.Revision> revisions, String why);
  }

  /** Every map is keyed by {@link VaultNames#key}: a log may name one file in two spellings. */
  private final VaultNames names;
  private final Map<String, List<LogRecord.RevisionRecord>> toReplay = new ConcurrentHashMap<>();
  private final Map<String, String> spelledAs = new ConcurrentHashMap<>();
  private final Map<String, String> damaged = new ConcurrentHashMap<>();
  private final Map<String, Long> damagedFrom = new ConcurrentHashMap<>();
  private volatile String unattributed;

  Recovery(VaultNames names) {
    this.names = names;
  }

  void add(LogReader.Scan scan) {
    scan.byDocument().forEach((path, records) -> {
      String key = names.key(path);
      spelledAs.putIfAbsent(key, path);
      toReplay.merge(key, records, (a, b) -> {
        List<LogRecord.RevisionRecord> both = new ArrayList<>(a);
        both.addAll(b);
        both.sort(java.util.Comparator.comparingLong(LogRecord.RevisionRecord::seq));
        return both;
      });
    });
    scan.damagedDocuments().forEach((path, why) -> {
      spelledAs.putIfAbsent(names.key(path), path);
      damaged.put(names.key(path), why);
    });
    scan.damagedFrom().forEach((path, from) -> damagedFrom.merge(names.key(path), from, Math::min));
    unattributed = scan.unattributedDamage();
    if (scan.records() > 0) {
      LOG.info("write-ahead log: {} records for {} documents not yet known to be in their files; replaying"
          + " them as each document loads", scan.records(), scan.byDocument().size());
    }
  }

  /** Documents the log still holds records for, whose files the scan may not have found. */
  List<String> pending() {
    List<String> paths = new ArrayList<>();
    for (String key : toReplay.keySet()) {
      paths.add(spelledAs.getOrDefault(key, key));
    }
    return paths;
  }

  /**
   * The log's records for a document just read from its file, applied; null when the log holds
   * none. Called once per document, by its actor, before the document serves anything.
   */
  Replay.Outcome replay(String path, DocSnapshot disk, SetAside aside) {
    String key = names.key(path);
    List<LogRecord.RevisionRecord> records = toReplay.remove(key);
    String damage = damaged.remove(key);
    Long from = damagedFrom.remove(key);
    if (records == null && damage == null) {
      return null;
    }
    Replay.Outcome o = Replay.apply(disk, records == null ? List.of() : records, damage,
        from == null ? Long.MAX_VALUE : from, unattributed);
    if (!o.setAside().isEmpty()) {
      aside.setAside(path, o.setAside(), disk == null
          ? "the log holds revisions of a document whose file is gone"
          : "the log holds revisions that do not continue the file's history (the file was replaced)");
    }
    if (o.applied() > 0) {
      LOG.info("{}: replayed {} revisions from the write-ahead log (now at revision {})", path, o.applied(),
          o.snapshot().rev());
    }
    if (o.snapshot() != null && o.snapshot().failure() != null && disk != null && disk.failure() == null) {
      LOG.error("{} is closed to writes: {}", path, o.snapshot().failure());
    }
    return o;
  }
}
