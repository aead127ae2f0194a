package dev.gram.store;

import dev.gram.edit.PatchEngine;
import dev.gram.format.Revision;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * What a document's actor may use of the vault: the services a load, a commit or a checkpoint
 * needs, and the three things it tells the vault. Narrow on purpose; the vault implements it.
 */
interface ActorContext {
  /** Where the actors' mailboxes run: the vault's I/O threads. */
  Executor io();

  PathResolver paths();

  DurableFiles files();

  Idempotency requests();

  PatchEngine patchEngine();

  PatchEngine.Context patchContext();

  Clock clock();

  /** Commits between taking their recorded time and being published (what readers may see as settled). */
  CommitsInFlight inFlight();

  /** The last steps of every commit: this node's log, and on a cluster the other nodes. */
  Committer committer();

  /** What the log held for this document at start, applied to the file just read; null when nothing. */
  Replay.Outcome replayLog(String path, DocSnapshot disk);

  boolean documentIdTaken(String documentId, String path);

  /** Where a published snapshot came from. */
  enum Origin {
    /** Written by this node: a commit, or a state it wrote back. */
    WRITTEN,
    /** Read from the file: its request ids are indexed again. */
    READ,
    /** Revisions another node committed, followed here. */
    FOLLOWED
  }

  /** Tells the vault (and its listeners) of a new snapshot. */
  void published(String path, DocSnapshot snapshot, Origin origin);

  /** Has the next checkpoint round write this document's file. */
  void oweCheckpoint(String path);

  /** Keeps acknowledged revisions that can no longer join their document; never drops them. */
  void setAside(String path, List<Revision> revisions, String why);

  /** CPU a write took on its actor's thread (for /metrics). */
  void commitCpu(long nanos);
}
