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

  private final Map<String, List<LogRecord.RevisionRecord>> toReplay = new ConcurrentHashMap<>();
  private final Map<String, String> damaged = new ConcurrentHashMap<>();
  private final Map<String, Long> damagedFrom = new ConcurrentHashMap<>();
  private volatile String unattributed;

  void add(LogReader.Scan scan) {
    toReplay.putAll(scan.byDocument());
    damaged.putAll(scan.damagedDocuments());
    damagedFrom.putAll(scan.damagedFrom());
    unattributed = scan.unattributedDamage();
    if (scan.records() > 0) {
      LOG.info("write-ahead log: {} records for {} documents not yet known to be in their files; replaying"
          + " them as each document loads", scan.records(), scan.byDocument().size());
    }
  }

  /** Documents the log still holds records for, whose files the scan may not have found. */
  List<String> pending() {
    return new ArrayList<>(toReplay.keySet());
  }

  /**
   * The log's records for a document just read from its file, applied; null when the log holds
   * none. Called once per document, by its actor, before the document serves anything.
   */
  Replay.Outcome replay(String path, DocSnapshot disk, SetAside aside) {
    List<LogRecord.RevisionRecord> records = toReplay.remove(path);
    String damage = damaged.remove(path);
    Long from = damagedFrom.remove(path);
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
