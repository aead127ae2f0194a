package dev.gram.index;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.IndexSearcher;

/**
 * The rankings of the last recalls, for the index as one reader sees it. A ranking depends on the
 * query, the mode it was answered in, the filters, its depth and the index's contents, nothing
 * else: asked again while the reader is the same, it is the same list, so it is kept rather than
 * searched for again. Agents repeat recalls: a retry after a timeout, the same question in another
 * mode, several agents of one team starting the day with the same "what is open". A recall of a
 * common word scores every unit that has it (their scores tie, so Lucene's block-max skipping
 * cannot leave any out), and that is most of its time at 10,000 records.
 *
 * <p>Every refresh of the index makes a new reader, and the first recall that sees it drops every
 * kept ranking: nothing here can answer with what a newer write changed. Beside the rankings, what
 * their pages showed of each unit ({@link HitFields}, by document number) is kept for the same
 * reader: reading it was two fifths of a repeated recall's search thread (JFR, 10,000 records).
 * Whether the answer is partial is asked again by each recall.
 */
final class RecentRankings {
  /** What a ranking depends on, the reader apart. */
  record Key(String query, RecallRequest.Mode mode, RecallRequest.Filters filters, int depth) {}

  static final int KEPT = 256;
  /** A ranking deeper than this (a far page of a cursor) is not worth its memory. */
  static final int DEEPEST = 1_000;

  private final Map<Key, List<Candidate>> rankings =
      new LinkedHashMap<>(KEPT * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, List<Candidate>> eldest) {
          return size() > KEPT;
        }
      };
  /** Units whose shown fields are kept at most. */
  static final int SHOWN = 4 * KEPT;

  private final Map<Integer, HitFields> shown =
      new LinkedHashMap<>(SHOWN * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, HitFields> eldest) {
          return size() > SHOWN;
        }
      };
  /** The reader the kept rankings came from (its cache key: holding it does not hold the reader). */
  private Object reader;

  /** The ranking kept for {@code key} from {@code reader}, or null. */
  synchronized List<Candidate> get(Object reader, Key key) {
    return reader == this.reader ? rankings.get(key) : null;
  }

  /**
   * The shown fields of each of {@code docs} ({@code s}'s reader is {@code reader}): those kept
   * when all are, else all read, and kept.
   */
  HitFields[] shown(IndexSearcher s, Object reader, int[] docs) throws IOException {
    HitFields[] kept = shown(reader, docs);
    if (!Arrays.asList(kept).contains(null)) {
      return kept;
    }
    HitFields[] read = HitFields.of(s, docs);
    keepShown(reader, docs, read);
    return read;
  }

  /** The kept shown fields of each of {@code docs} from {@code reader}; null where none is kept. */
  synchronized HitFields[] shown(Object reader, int[] docs) {
    HitFields[] out = new HitFields[docs.length];
    if (reader != null && reader == this.reader) {
      for (int i = 0; i < docs.length; i++) {
        out[i] = shown.get(docs[i]);
      }
    }
    return out;
  }

  /** Keeps the shown fields of {@code docs}, read with {@code reader} (dropped with its rankings). */
  synchronized void keepShown(Object reader, int[] docs, HitFields[] fields) {
    if (reader == null) {
      return;
    }
    if (reader != this.reader) {
      rankings.clear();
      shown.clear();
      this.reader = reader;
    }
    for (int i = 0; i < docs.length; i++) {
      shown.put(docs[i], fields[i]);
    }
  }

  /** Keeps {@code ranking}, found with {@code reader}; a new reader drops what an older one found. */
  synchronized void put(Object reader, Key key, List<Candidate> ranking) {
    if (reader == null || ranking.size() > DEEPEST) {
      return;
    }
    if (reader != this.reader) {
      rankings.clear();
      shown.clear();
      this.reader = reader;
    }
    rankings.put(key, List.copyOf(ranking));
  }
}
