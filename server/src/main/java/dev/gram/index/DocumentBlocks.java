package dev.gram.index;

import dev.gram.store.DocSnapshot;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.document.Document;

/**
 * Writes a document's block of Lucene documents, whole or only the units that changed. It
 * remembers what this process last wrote for each document (unit key → content signature): a
 * commit that adds one record to a document of a thousand then touches two Lucene documents (the
 * record and the meta document), not a thousand and one. Callers hold the path's lock ({@link
 * LiveIndex#lockFor}), which is also what keeps that memory consistent with the index.
 */
final class DocumentBlocks {
  /** A write's Lucene sequence number, and how many of the units it wrote lack a vector. */
  record Written(long seq, int missingVectors) {}

  private final LiveIndex index;
  private final ConcurrentHashMap<String, Map<String, Object>> written = new ConcurrentHashMap<>();

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
    String docTitle = s.state().title().isEmpty() ? s.state().id() : s.state().title();
    int missing = 0;
    for (DocMapper.Planned p : plan) {
      next.put(p.key(), p.signature());
      if (!Objects.equals(p.signature(), known.get(p.key()))) {
        Document d = DocMapper.document(path, p, folders, docTitle, vectors);
        seq = Math.max(seq, index.replaceUnit(p.key(), d));
        if ("0".equals(d.getField(Schema.EMBEDDED).stringValue())) {
          missing++;
        }
      }
    }
    for (String key : known.keySet()) {
      if (!next.containsKey(key)) {
        seq = Math.max(seq, index.deleteUnit(key));
      }
    }
    written.put(path, next);
    return new Written(seq, missing);
  }

  /** Removes the document's block; returns the change's sequence number. */
  long remove(String path) throws IOException {
    long seq = index.delete(path);
    written.remove(path);
    return seq;
  }

  /** Forgets what was written for {@code path}: its next write is whole. */
  void forget(String path) {
    written.remove(path);
  }
}
