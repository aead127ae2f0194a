package dev.gram.index;

import dev.gram.store.DocSnapshot;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.document.Document;

/**
 * Writes a document's block of Lucene documents, whole or only the units that changed. It
 * remembers what this process last wrote for each document (unit key → content signature): a
 * commit that adds one record to a document of a thousand then touches two Lucene documents (the
 * record and the meta document), not a thousand and one. It also remembers which of the units it
 * wrote still lack a vector, with what they were made from, so that the embedder computes those
 * and rewrites them alone ({@link #addVectors}) instead of the whole block. Callers hold the
 * path's lock ({@link LiveIndex#lockFor}), which is also what keeps that memory consistent with
 * the index.
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

  private final LiveIndex index;
  private final ConcurrentHashMap<String, Map<String, Object>> written = new ConcurrentHashMap<>();
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
    List<DocMapper.Planned> plan = DocMapper.plan(path, s.state());
    Map<String, Object> next = new HashMap<>(plan.size() * 2 + 2);
    long seq = index.replaceUnit(DocMapper.metaKey(path), DocMapper.meta(path, s.rev(), s.hash()));
    next.put(DocMapper.metaKey(path), s.rev() + " " + s.hash());
    List<String> folders = DocMapper.folders(path);
    String docTitle = docTitle(s);
    Map<String, Unembedded> missing = unembedded.get(path);
    int count = 0;
    for (DocMapper.Planned p : plan) {
      next.put(p.key(), p.signature());
      if (!Objects.equals(p.signature(), known.get(p.key()))) {
        Document d = DocMapper.document(path, p, folders, docTitle, vectors);
        seq = Math.max(seq, index.replaceUnit(p.key(), d));
        if (embedded(d)) {
          if (missing != null) {
            missing.remove(p.key());
          }
        } else {
          count++;
          if (missing != null) {
            missing.put(p.key(), new Unembedded(p, p.unit(), docTitle));
          }
        }
      }
    }
    for (String key : known.keySet()) {
      if (!next.containsKey(key)) {
        seq = Math.max(seq, index.deleteUnit(key));
        if (missing != null) {
          missing.remove(key);
        }
      }
    }
    written.put(path, next);
    return new Written(seq, count);
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
    unembedded.remove(path);
  }

  private static boolean embedded(Document d) {
    return "1".equals(d.getField(Schema.EMBEDDED).stringValue());
  }

  private static String docTitle(DocSnapshot s) {
    return s.state().title().isEmpty() ? s.state().id() : s.state().title();
  }
}
