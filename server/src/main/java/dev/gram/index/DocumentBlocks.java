package dev.gram.index;

import dev.gram.format.ChangedSpan;
import dev.gram.format.Entity;
import dev.gram.format.GramDocument;
import dev.gram.store.DocSnapshot;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.document.Document;

/**
 * Writes a document's block of Lucene documents, whole or only the units that changed. It
 * remembers what this process last wrote for each document (unit key → content signature, and the
 * state it was made from): a commit that adds one record to a document of a thousand then plans
 * the records of its {@linkplain ChangedSpan span} and their neighbours, and touches three Lucene
 * documents (the record, the one before it, whose neighbour it is, and the meta document), not a
 * thousand and one. Planning every record instead (a walk with a key and a signature each) cost
 * the index's live thread about 1 ms per commit on a document of 3,000 to 6,000 records.
 *
 * <p>It also remembers which of the units it wrote still lack a vector, with what they were made
 * from, so that the embedder computes those and rewrites them alone ({@link #addVectors}) instead
 * of the whole block. Callers hold the path's lock ({@link LiveIndex#lockFor}), which is also what
 * keeps that memory consistent with the index.
 */
final class DocumentBlocks {
  /** A write's Lucene sequence number, and how many of the units it wrote lack a vector. */
  record Written(long seq, int missingVectors) {}

  /**
   * A unit written without a vector: what its Lucene document was made from, so that it can be
   * written again, identical but for the vector.
   */
  record Unembedded(DocMapper.Planned plan, DocUnits.Unit unit, String docTitle) {
    String chunkKey() {
      return unit.chunkKey();
    }

    String embedText() {
      return unit.embedText();
    }
  }

  /**
   * Past this many changed records a commit's units are planned over the whole document: the
   * span's walk is then no cheaper than the plan.
   */
  static final int MAX_SPAN = 256;

  private final LiveIndex index;
  private final ConcurrentHashMap<String, Map<String, Object>> written = new ConcurrentHashMap<>();
  /** Per document, the state this process last wrote: where the next commit's changes are found. */
  private final ConcurrentHashMap<String, GramDocument> states = new ConcurrentHashMap<>();
  /** Per document, unit key → the unit written without a vector; absent: not known. */
  private final ConcurrentHashMap<String, Map<String, Unembedded>> unembedded = new ConcurrentHashMap<>();

  DocumentBlocks(LiveIndex index) {
    this.index = index;
  }

  /** Replaces the whole block with the units of {@code s}, vectors from {@code vectors}. */
  Written replace(String path, DocSnapshot s, DocMapper.Vectors vectors) throws IOException {
    DocMapper.Mapped m = DocMapper.map(path, s.rev(), s.hash(), s.state(), vectors);
    long seq = index.replace(path, m.docs());
    Map<String, Object> signatures = new HashMap<>(m.keys().size() * 2);
    for (int i = 0; i < m.keys().size(); i++) {
      signatures.put(m.keys().get(i), m.signatures().get(i));
    }
    written.put(path, signatures);
    states.put(path, s.state());
    Map<String, Unembedded> missing = new LinkedHashMap<>();
    if (m.missingVectors() > 0) {
      // The plan again, only when some unit lacks its vector: map() keeps the meta document
      // first and then the plan's units in order.
      List<DocMapper.Planned> plan = DocMapper.plan(path, s.state());
      String docTitle = docTitle(s);
      for (int i = 0; i < plan.size(); i++) {
        if (!embedded(m.docs().get(i + 1))) {
          DocMapper.Planned p = plan.get(i);
          missing.put(p.key(), new Unembedded(p, p.unit(), docTitle));
        }
      }
    }
    unembedded.put(path, missing);
    return new Written(seq, m.missingVectors());
  }

  /**
   * Rewrites the units of {@code s} whose content changed since this process last wrote the
   * document, removes the ones that are gone, and rewrites the meta document (its revision and
   * hash). Returns {@code null} when this process has not written the document yet: nothing is
   * known to compare with, so it must be {@link #replace replaced} whole.
   */
  Written replaceChanged(String path, DocSnapshot s, DocMapper.Vectors vectors) throws IOException {
    Map<String, Object> known = written.get(path);
    if (known == null) {
      return null;
    }
    GramDocument last = states.get(path);
    if (last != null && last.owner() == s.state().owner()) {
      List<Entity> before = last.records();
      List<Entity> after = s.state().records();
      ChangedSpan span = ChangedSpan.of(before, after, MAX_SPAN);
      if (span != null) {
        try {
          return replaceSpan(path, s, known, before, after, span, vectors);
        } catch (IOException | RuntimeException e) {
          // What this process wrote is no longer known for sure: the next write is whole.
          forget(path);
          throw e;
        }
      }
    }
    List<DocMapper.Planned> plan = DocMapper.plan(path, s.state());
    Map<String, Object> next = new HashMap<>(plan.size() * 2 + 2);
    Pass pass = new Pass(path, s, next, vectors);
    for (DocMapper.Planned p : plan) {
      next.put(p.key(), p.signature());
      if (!Objects.equals(p.signature(), known.get(p.key()))) {
        pass.write(p);
      }
    }
    for (String key : known.keySet()) {
      if (!next.containsKey(key)) {
        pass.delete(key);
      }
    }
    written.put(path, next);
    states.put(path, s.state());
    return pass.written();
  }

  /**
   * {@link #replaceChanged} when only records changed (the owner, and so the body's sections and
   * the title, is the same object): the searched records of the span are planned, with the one
   * before it and the one after (their neighbour may have changed), and the span's records that
   * are gone are deleted; the rest of the document is not looked at. Relations are not units
   * ({@link DocUnits#searchedRecords}), so neighbours are found across them.
   */
  private Written replaceSpan(String path, DocSnapshot s, Map<String, Object> known, List<Entity> before,
      List<Entity> after, ChangedSpan span, DocMapper.Vectors vectors) throws IOException {
    Pass pass = new Pass(path, s, known, vectors);
    Set<String> planned = new HashSet<>();
    int from = searchedBefore(after, span.start());
    int to = searchedFrom(after, span.afterEnd());
    for (int i = from < 0 ? span.start() : from; i < (to < 0 ? after.size() : to + 1); i++) {
      Entity r = after.get(i);
      if (!DocUnits.searched(r)) {
        continue;
      }
      int b = searchedBefore(after, i);
      int a = searchedFrom(after, i + 1);
      DocMapper.Planned p = DocMapper.record(path, r, b < 0 ? null : after.get(b), a < 0 ? null : after.get(a));
      planned.add(p.key());
      if (!Objects.equals(p.signature(), known.get(p.key()))) {
        known.put(p.key(), p.signature());
        pass.write(p);
      }
    }
    for (int i = span.start(); i < span.beforeEnd(); i++) {
      Entity gone = before.get(i);
      String key = DocMapper.recordKey(path, gone.id());
      if (DocUnits.searched(gone) && !planned.contains(key) && known.remove(key) != null) {
        pass.delete(key);
      }
    }
    states.put(path, s.state());
    return pass.written();
  }

  /**
   * One commit's writes to a document's block: the meta document first, then the units it
   * writes or deletes, each kept in the memory of units without a vector.
   */
  private final class Pass {
    private final String path;
    private final List<String> folders;
    private final String docTitle;
    private final DocMapper.Vectors vectors;
    private final Map<String, Unembedded> missing;
    private long seq;
    private int missingVectors;

    /** Writes the meta document (the revision and hash) and notes it in {@code signatures}. */
    Pass(String path, DocSnapshot s, Map<String, Object> signatures, DocMapper.Vectors vectors) throws IOException {
      this.path = path;
      this.folders = DocMapper.folders(path);
      this.docTitle = docTitle(s);
      this.vectors = vectors;
      this.missing = unembedded.get(path);
      this.seq = index.replaceUnit(DocMapper.metaKey(path), DocMapper.meta(path, s.rev(), s.hash()));
      signatures.put(DocMapper.metaKey(path), s.rev() + " " + s.hash());
    }

    void write(DocMapper.Planned p) throws IOException {
      Document d = DocMapper.document(path, p, folders, docTitle, vectors);
      seq = Math.max(seq, index.replaceUnit(p.key(), d));
      if (embedded(d)) {
        if (missing != null) {
          missing.remove(p.key());
        }
      } else {
        missingVectors++;
        if (missing != null) {
          missing.put(p.key(), new Unembedded(p, p.unit(), docTitle));
        }
      }
    }

    void delete(String key) throws IOException {
      seq = Math.max(seq, index.deleteUnit(key));
      if (missing != null) {
        missing.remove(key);
      }
    }

    Written written() {
      return new Written(seq, missingVectors);
    }
  }

  /** The index of the last searched record before {@code i}, or -1. */
  private static int searchedBefore(List<Entity> records, int i) {
    for (int k = i - 1; k >= 0; k--) {
      if (DocUnits.searched(records.get(k))) {
        return k;
      }
    }
    return -1;
  }

  /** The index of the first searched record at or after {@code i}, or -1. */
  private static int searchedFrom(List<Entity> records, int i) {
    for (int k = i; k < records.size(); k++) {
      if (DocUnits.searched(records.get(k))) {
        return k;
      }
    }
    return -1;
  }

  /**
   * The units of {@code path} this process wrote without a vector (a copy), or {@code null} when
   * it does not know which they are (a document indexed by an earlier run): then only a whole
   * block, with every vector, makes it complete.
   */
  Map<String, Unembedded> unembedded(String path) {
    Map<String, Unembedded> m = unembedded.get(path);
    return m == null ? null : new LinkedHashMap<>(m);
  }

  /**
   * Writes again, now with their vector, the units of {@code path} still without one whose chunk
   * {@code vectors} knows; the others are left as they are. Returns how many were written.
   */
  int addVectors(String path, DocMapper.Vectors vectors) throws IOException {
    Map<String, Unembedded> missing = unembedded.get(path);
    if (missing == null || missing.isEmpty()) {
      return 0;
    }
    List<String> folders = DocMapper.folders(path);
    int n = 0;
    for (var it = missing.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Unembedded> e = it.next();
      Unembedded u = e.getValue();
      if (vectors.get(u.chunkKey()) == null) {
        continue;
      }
      index.replaceUnit(e.getKey(), DocMapper.document(path, u.plan(), folders, u.docTitle(), vectors));
      it.remove();
      n++;
    }
    return n;
  }

  /** Removes the document's block; returns the change's sequence number. */
  long remove(String path) throws IOException {
    long seq = index.delete(path);
    forget(path);
    return seq;
  }

  /** Forgets what was written for {@code path}: its next write is whole. */
  void forget(String path) {
    written.remove(path);
    states.remove(path);
    unembedded.remove(path);
  }

  private static boolean embedded(Document d) {
    return "1".equals(d.getField(Schema.EMBEDDED).stringValue());
  }

  private static String docTitle(DocSnapshot s) {
    return s.state().title().isEmpty() ? s.state().id() : s.state().title();
  }
}
