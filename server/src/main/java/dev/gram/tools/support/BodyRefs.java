package dev.gram.tools.support;

import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import dev.gram.store.DocSnapshot;
import dev.gram.store.DocumentReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Resolves what a document's body points at — {@code [[id]]} placements and {@code
 * [label](@id)} mentions — to records of the document itself or, for {@code document-id/entity-id},
 * of another loaded document (as it is now). Caches the per-document facts record lines need
 * (implementation dates, {@code replaces} edges) for the length of one read.
 */
public final class BodyRefs {
  private final GramDocument doc;
  private final Function<String, GramDocument> otherDocuments;
  private final Map<GramDocument, Map<String, String>> implemented = new IdentityHashMap<>();
  private final Map<GramDocument, Map<String, List<String>>> replaces = new IdentityHashMap<>();

  public BodyRefs(GramDocument doc, Function<String, GramDocument> otherDocuments) {
    this.doc = doc;
    this.otherDocuments = otherDocuments;
  }

  /** References resolved in {@code doc} and, across documents, in the store's loaded documents. */
  public static BodyRefs in(GramDocument doc, DocumentReader documents) {
    return new BodyRefs(
        doc,
        docId -> {
          String path = documents.pathOfDocumentId(docId);
          DocSnapshot s = path == null ? null : documents.peek(path);
          return s == null ? null : s.state();
        });
  }

  public GramDocument document() {
    return doc;
  }

  /** A record a body points at: the id as the body wrote it, the record and its document. */
  public record Ref(String shownId, Entity entity, GramDocument doc) {}

  /** What {@code ref} names, or {@code null} when it names nothing that can be read. */
  public Ref resolve(String ref) {
    int slash = ref.indexOf('/');
    if (slash < 0) {
      Entity e = doc.record(ref);
      return e == null ? null : new Ref(ref, e, doc);
    }
    String docId = ref.substring(0, slash);
    String id = ref.substring(slash + 1);
    GramDocument other = docId.equals(doc.id()) ? doc : otherDocuments.apply(docId);
    Entity e = other == null ? null : other.record(id);
    return e == null ? null : new Ref(ref, e, other);
  }

  /** The implementation date of a decision (see {@link RecordFacts#implementedDates}). */
  public String implemented(Ref r) {
    if (r.entity().type() != EntityType.DECISION) {
      return null;
    }
    return implemented.computeIfAbsent(r.doc(), RecordFacts::implementedDates).get(r.entity().id());
  }

  /** Targets the record replaces: its {@code replaces} links, then its REL replaces edges. */
  public List<String> replaces(Ref r) {
    List<String> out = new ArrayList<>();
    for (Link l : r.entity().links()) {
      if (l.predicate().equals("replaces")) {
        out.add(l.target());
      }
    }
    List<String> rel = replaces.computeIfAbsent(r.doc(), BodyRefs::relReplaces).get(r.entity().id());
    if (rel != null) {
      for (String t : rel) {
        if (!out.contains(t)) {
          out.add(t);
        }
      }
    }
    return out;
  }

  private static Map<String, List<String>> relReplaces(GramDocument d) {
    Map<String, List<String>> out = new HashMap<>();
    String prefix = d.id() + "/";
    for (Entity r : d.records()) {
      if (r.type() == EntityType.RELATION && "replaces".equals(r.first("rel"))) {
        String from = r.first("from");
        String to = r.first("to");
        if (from != null && to != null) {
          String local = from.startsWith(prefix) ? from.substring(prefix.length()) : from;
          out.computeIfAbsent(local, k -> new ArrayList<>()).add(to);
        }
      }
    }
    return out;
  }
}
