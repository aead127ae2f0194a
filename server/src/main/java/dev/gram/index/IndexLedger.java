package dev.gram.index;

import dev.gram.store.DocSnapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the index holds of each document of the vault: the revision and state hash its block was
 * built from, and how far that is to be trusted. Kept apart from Lucene so that the status a
 * recall or {@code gram_capabilities} reports costs no search, and so that a hit can name its
 * document's identity (units carry no revision of their own: an unchanged unit is not rewritten
 * by a commit). Changed only under the document's path lock ({@link LiveIndex#lockFor}).
 */
final class IndexLedger {
  private static final Logger LOG = LoggerFactory.getLogger(IndexLedger.class);

  enum Status {
    /** In the index from an earlier run, not yet compared with the vault. */
    UNVERIFIED,
    /** Known to need indexing; queued for the background rebuild. */
    PENDING,
    INDEXED,
    /** Cannot be parsed: not in the index. */
    FAILED
  }

  /** What the index knows of one document. */
  record Entry(Status status, int rev, String hash) {
    boolean matches(DocSnapshot s) {
      return rev == s.rev() && Objects.equals(hash, s.hash());
    }
  }

  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final AtomicIntegerArray counts = new AtomicIntegerArray(Status.values().length);
  /** Units with and without a vector, as of the last refresh. */
  private volatile int embedded;
  private volatile int unembedded;

  Entry get(String path) {
    return entries.get(path);
  }

  void set(String path, Entry next) {
    entries.compute(
        path,
        (k, old) -> {
          if (old != null) {
            counts.decrementAndGet(old.status().ordinal());
          }
          counts.incrementAndGet(next.status().ordinal());
          return next;
        });
  }

  void remove(String path) {
    entries.computeIfPresent(
        path,
        (k, old) -> {
          counts.decrementAndGet(old.status().ordinal());
          return null;
        });
  }

  /** The documents held from an earlier run that the vault has not confirmed. */
  List<String> unverified() {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Entry> e : entries.entrySet()) {
      if (e.getValue().status() == Status.UNVERIFIED) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /** Documents whose block may not match the vault yet: a recall that counts them is partial. */
  int pendingFiles() {
    return counts.get(Status.PENDING.ordinal()) + counts.get(Status.UNVERIFIED.ordinal());
  }

  int unembedded() {
    return unembedded;
  }

  int units() {
    return embedded + unembedded;
  }

  IndexStatus.Stats stats() {
    return new IndexStatus.Stats(
        counts.get(Status.INDEXED.ordinal()), pendingFiles(), counts.get(Status.FAILED.ordinal()), embedded);
  }

  /** Counts units with and without a vector; called after every refresh that changed something. */
  void recountVectors(LiveIndex index) {
    try {
      IndexSearcher s = index.acquire();
      try {
        embedded = s.count(new TermQuery(new Term(Schema.EMBEDDED, "1")));
        unembedded = s.count(new TermQuery(new Term(Schema.EMBEDDED, "0")));
      } finally {
        index.release(s);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("recount failed: {}", e.toString());
    }
  }
}
