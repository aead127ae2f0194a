package dev.gram.store;

import dev.gram.format.Revision;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A commit on one node: one record in the write-ahead log, acknowledged once an fsync covers it. */
final class LogCommitter implements Committer {
  private static final Logger LOG = LoggerFactory.getLogger(LogCommitter.class);
  private final WriteAheadLog log;

  LogCommitter(WriteAheadLog log) {
    this.log = log;
  }

  @Override
  public boolean commit(String path, Revision head, Revision rev) throws IOException {
    durable(path, rev);
    return true;
  }

  /** Appends the revision's record and waits for its fsync; returns its sequence number. */
  long durable(String path, Revision rev) throws IOException {
    long seq = log.append(path, LogRecord.revisionPayload(path, rev));
    try {
      log.awaitDurable(seq);
    } catch (IOException e) {
      throw new NotDurable(e);
    }
    return seq;
  }

  /** Cancels a durable record that must never replay. */
  void cancel(String path, long seq) {
    try {
      log.voidRecord(seq);
    } catch (IOException e) {
      LOG.warn("{}: cancelling log record {} failed: {}", path, seq, e.toString());
    }
  }
}
