package dev.gram.store;

/** What the store counts: the write actors' work and the log's, for /metrics and tests. */
public final class StoreMetrics {
  private final StoreServices store;

  StoreMetrics(StoreServices store) {
    this.store = store;
  }

  /** CPU time the write actors spent on writes (commits, conflicts, refusals), in seconds. */
  public double writeCpuSeconds() {
    return store.commitCpuNanos.sum() / 1e9;
  }

  /** Writes the actors handled, whatever their outcome. */
  public long writesHandled() {
    return store.writesHandled.sum();
  }

  /** Records appended to the write-ahead log since start; 0 without a log. */
  public long logRecords() {
    WriteAheadLog l = store.log;
    return l == null ? 0 : l.appended();
  }

  /** Documents with revisions held in memory and the log but not yet in their file. */
  public int checkpointsOwed() {
    int n = 0;
    for (DocumentActor a : store.table.actors()) {
      if (a.owesCheckpoint()) {
        n++;
      }
    }
    return n;
  }

  /** Writes queued or running across all documents. */
  public int writeQueueDepth() {
    int d = 0;
    for (DocumentActor a : store.table.actors()) {
      d += a.queueDepth();
    }
    return d;
  }
}
