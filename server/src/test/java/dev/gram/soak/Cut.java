package dev.gram.soak;

import java.util.List;

/**
 * Where a power cut falls. {@link #RANDOM}: the server is killed at a random moment and LazyFS
 * drops its cache. The others arm a LazyFS crash fault at one kind of I/O of the log or of the
 * checkpointer: LazyFS kills itself at the first such operation, taking every unsynced byte with
 * it, and the server goes on answering for a moment on a file system that is gone.
 *
 * <p>LazyFS matches each expression anywhere in the path it sees (the backing folder's). For
 * {@code rename} and {@code link} it ignores {@code from_rgx} (its check only runs when the
 * expression matches the word "none") and matches {@code to_rgx}: the server renames onto a
 * {@code .gram} only to publish a checkpoint, and links onto one only to create a document.
 */
enum Cut {
  RANDOM("random moment", null, null, null, null),
  /**
   * Not a LazyFS fault: LazyFS's log of operations is followed while the server writes, and LazyFS
   * is killed the moment a log fsync leaves an older segment's writes unsynced ({@link OpLog}),
   * before a checkpoint can write them into their documents. Does not fire on a correct log.
   */
  LOG_LEFT_UNSYNCED("when a log fsync leaves older writes unsynced", null, null, null, null),
  LOG_WRITE_AFTER("after a log write", "after", "write", Paths.SEGMENT, null),
  LOG_FSYNC_BEFORE("before a log fsync", "before", "fsync", Paths.SEGMENT, null),
  LOG_FSYNC_AFTER("after a log fsync", "after", "fsync", Paths.SEGMENT, null),
  SEGMENT_CREATE_BEFORE("before a segment is created", "before", "create", Paths.SEGMENT, null),
  SEGMENT_UNLINK_BEFORE("before a segment unlink", "before", "unlink", Paths.SEGMENT, null),
  TEMPORARY_FSYNC_BEFORE("before a temporary file's fsync", "before", "fsync", Paths.TEMPORARY, null),
  CHECKPOINT_RENAME_BEFORE("before a checkpoint's rename", "before", "rename", Paths.TEMPORARY, Paths.DOCUMENT),
  CHECKPOINT_RENAME_AFTER("after a checkpoint's rename", "after", "rename", Paths.TEMPORARY, Paths.DOCUMENT),
  CREATE_LINK_BEFORE("before a create's link", "before", "link", Paths.TEMPORARY, Paths.DOCUMENT);

  /** Cuts while the server writes under load. */
  static final List<Cut> UNDER_LOAD = List.of(values());

  /** Cuts during the next start's replay, when it writes the replayed revisions into the files. */
  static final List<Cut> DURING_REPLAY = List.of(RANDOM, TEMPORARY_FSYNC_BEFORE, CHECKPOINT_RENAME_BEFORE,
      CHECKPOINT_RENAME_AFTER, SEGMENT_UNLINK_BEFORE);

  final String label;
  final String timing;
  final String op;
  final String from;
  final String to;

  Cut(String label, String timing, String op, String from, String to) {
    this.label = label;
    this.timing = timing;
    this.op = op;
    this.from = from;
    this.to = to;
  }

  /** Whether this cut waits for a moment that may never come (then the cut falls at random). */
  boolean targeted() {
    return op != null || this == LOG_LEFT_UNSYNCED;
  }

  /** The regular expressions, kept short: LazyFS reads a command of at most 100 bytes. */
  private static final class Paths {
    static final String SEGMENT = "/\\.gram-wal/[0-9a-f]+\\.wal$";
    static final String TEMPORARY = "/\\.[^/]+\\.tmp-[^/]+$";
    static final String DOCUMENT = "\\.gram$";
  }
}
