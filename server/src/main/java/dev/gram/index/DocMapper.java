package dev.gram.index;

import static dev.gram.index.DocUnits.DATE_KEYS;
import static dev.gram.index.DocUnits.FULL_DATE;
import static dev.gram.index.DocUnits.recordUnit;
import static dev.gram.index.DocUnits.sectionUnits;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.RecordDates;
import dev.gram.format.Hashes;
import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import dev.gram.format.body.NodeType;
import dev.gram.base.DateSpan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongRange;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.BytesRef;
import dev.gram.index.DocUnits.Unit;

/**
 * Turns one document of the vault into the Lucene documents that stand for it.
 *
 * <p>It maps the {@link DocUnits units} of a document (records and chunks of body sections) to
 * Lucene documents. Every Lucene field the index writes, with its analysis, is named here and
 * nowhere else, so the index's schema can be read in one place; the searcher and the keeper only
 * use these names.
 */
final class DocMapper {
  private DocMapper() {}


  /** Where vectors already computed for a chunk text can be found. */
  interface Vectors {
    /** The vector of a chunk key, or {@code null} when it has not been computed. */
    float[] get(String chunkKey);

    Vectors NONE = k -> null;
  }

  /**
   * The Lucene documents of one vault document (the meta document first), their keys and what
   * they were made from (same order), and how many of its units lack a vector.
   */
  record Mapped(List<Document> docs, List<String> keys, List<Object> signatures, int units, int missingVectors) {}

  /**
   * One unit of a document as the index will hold it: its key, and what its Lucene document is
   * made from. Two plans with equal signatures make the same Lucene document (but for the
   * vector), so a commit need not rewrite it. A record's signature is the record and its two
   * neighbours, whose text it is indexed with. Records are immutable and shared between the states
   * of a document, so for an unchanged record the comparison is three identity checks, and its
   * unit is only built ({@link #unit()}) when it or a neighbour did change: planning a commit to a
   * document of thousands of records costs a walk over them, not thousands of units.
   */
  record Planned(String key, Object signature, Entity record, Entity before, Entity after, Unit section) {
    Unit unit() {
      return section != null ? section : recordUnit(record, before, after);
    }
  }

  static String metaKey(String path) {
    return path + "\u0000" + Schema.KIND_META;
  }

  /** The units of a document with their keys and signatures, without building any document. */
  static List<Planned> plan(String path, GramDocument doc) {
    String docTitle = doc.title().isEmpty() ? doc.id() : doc.title();
    List<Planned> out = new ArrayList<>();
    java.util.Map<String, Integer> seen = new java.util.HashMap<>();
    List<Entity> records = DocUnits.searchedRecords(doc);
    for (int i = 0; i < records.size(); i++) {
      out.add(record(path, records, i));
    }
    for (Unit u : sectionUnits(doc)) {
      String base = path + "\u0000" + u.kind() + "\u0000" + u.entityId() + "\u0000" + u.chunkKey();
      String key = base + "\u0000" + seen.merge(base, 1, Integer::sum);
      out.add(new Planned(key, List.of(docTitle, String.valueOf(u.context()), u.text(), u.scopes()), null, null, null, u));
    }
    return out;
  }

  /** The unit of record {@code i} of a document's {@linkplain DocUnits#searchedRecords searched records}. */
  static Planned record(String path, List<Entity> records, int i) {
    return record(path, records.get(i), i > 0 ? records.get(i - 1) : null,
        i + 1 < records.size() ? records.get(i + 1) : null);
  }

  /** The unit of record {@code r} between its searched neighbours (either may be null). */
  static Planned record(String path, Entity r, Entity before, Entity after) {
    // The neighbours' text is part of the unit (DocUnits.near): a record whose neighbour changed
    // is written again.
    return new Planned(recordKey(path, r.id()), java.util.Arrays.asList(r, before, after), r, before, after, null);
  }

  static String recordKey(String path, String recordId) {
    return path + "\u0000" + Schema.KIND_RECORD + "\u0000" + recordId;
  }

  /** The meta document: the fingerprint of what the index holds for a path. */
  static Document meta(String path, int rev, String hash) {
    Document meta = new Document();
    meta.add(new StringField(Schema.UKEY, metaKey(path), Store.NO));
    meta.add(new StringField(Schema.PATH, path, Store.YES));
    meta.add(new StringField(Schema.KIND, Schema.KIND_META, Store.YES));
    meta.add(new StoredField(Schema.REV, rev));
    meta.add(new StoredField(Schema.HASH, hash));
    return meta;
  }

  /**
   * The block of Lucene documents for a readable document: the meta document first, then one per
   * unit.
   */
  static Mapped map(String path, int rev, String hash, GramDocument doc, Vectors vectors) {
    List<Document> docs = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    List<Object> signatures = new ArrayList<>();
    docs.add(meta(path, rev, hash));
    keys.add(metaKey(path));
    signatures.add(rev + " " + hash);
    List<String> folders = folders(path);
    String docTitle = doc.title().isEmpty() ? doc.id() : doc.title();
    int missing = 0;
    List<Planned> plan = plan(path, doc);
    for (Planned p : plan) {
      Document d = document(path, p, folders, docTitle, vectors);
      if (!d.getField(Schema.EMBEDDED).stringValue().equals("1")) {
        missing++;
      }
      docs.add(d);
      keys.add(p.key());
      signatures.add(p.signature());
    }
    return new Mapped(docs, keys, signatures, plan.size(), missing);
  }

  /** The Lucene document of one unit. */
  static Document document(String path, Planned p, List<String> folders, String docTitle, Vectors vectors) {
    Unit u = p.unit();
    Document d = new Document();
    d.add(new StringField(Schema.UKEY, p.key(), Store.NO));
    d.add(new StringField(Schema.PATH, path, Store.YES));
    d.add(new StringField(Schema.KIND, u.kind(), Store.YES));
    for (String f : folders) {
      d.add(new StringField(Schema.FOLDER, f, Store.NO));
    }
    d.add(new StringField(Schema.TYPE, u.type(), Store.YES));
    d.add(new StringField(Schema.EID, u.entityId(), Store.YES));
    d.add(new BinaryDocValuesField(Schema.ENTITY_KEY, new BytesRef(Schema.entityKey(path, u.entityId()))));
    d.add(new TextField(Schema.IDENT, u.entityId(), Store.NO));
    d.add(new BinaryDocValuesField(Schema.HIT,
        new HitFields(path, u.entityId(), u.type(), u.title(), u.status(),
            Schema.KIND_RECORD.equals(u.kind()) ? null : u.context()).encode()));
    for (String s : u.scopes()) {
      d.add(new StringField(Schema.SCOPE, s, Store.NO));
    }
    if (Schema.KIND_RECORD.equals(u.kind())) {
      d.add(new TextField(Schema.TITLE, u.titleText(), Store.NO));
      d.add(new TextField(Schema.TITLE_X, u.title(), Store.NO));
      if (u.near() != null) {
        d.add(new TextField(Schema.NEAR, u.near(), Store.NO));
      }
      for (String who : u.record().values("owner")) {
        d.add(new TextField(Schema.WHO, who, Store.NO));
      }
      addDates(d, u.record());
    } else {
      boolean bare = u.context() == null && u.text().isEmpty();
      d.add(new TextField(bare ? Schema.BARE_TITLE : Schema.DTITLE, docTitle, Store.NO));
      d.add(new TextField(Schema.TITLE_X, docTitle, Store.NO));
      if (u.context() != null) {
        d.add(new TextField(Schema.HEADING, u.context(), Store.NO));
        d.add(new TextField(Schema.HEADING_X, u.context(), Store.NO));
      }
    }
    for (String t : u.text()) {
      d.add(new TextField(Schema.TEXT, t, Store.NO));
      d.add(new TextField(Schema.TEXT_X, t, Store.NO));
    }
    d.add(new StringField(Schema.CHUNK, u.chunkKey(), Store.YES));
    float[] v = vectors.get(u.chunkKey());
    if (v != null) {
      d.add(new KnnFloatVectorField(Schema.VECTOR, v, VectorSimilarityFunction.DOT_PRODUCT));
      d.add(new StringField(Schema.EMBEDDED, "1", Store.NO));
    } else {
      d.add(new StringField(Schema.EMBEDDED, "0", Store.NO));
    }
    return d;
  }

  /**
   * The folders a path lies in, for the {@code folder} filter: {@code ""} (the vault without its
   * mounts) and every ancestor, e.g. {@code proj}, {@code proj/sub}; a mounted document has {@code
   * @mounts}, {@code @mounts/<id>} and the folders inside the mount, but not {@code ""}.
   */
  static List<String> folders(String path) {
    List<String> out = new ArrayList<>();
    if (!path.startsWith("@")) {
      out.add("");
    }
    int slash = path.indexOf('/');
    while (slash > 0) {
      out.add(path.substring(0, slash));
      slash = path.indexOf('/', slash + 1);
    }
    return out;
  }

  /** Date ranges of a record: all dates, each field's first date, the default field's date. */
  private static void addDates(Document d, Entity r) {
    for (Field f : r.fields()) {
      boolean dateKey = DATE_KEYS.contains(f.key());
      boolean first = true;
      for (String v : f.values()) {
        if (dateKey || FULL_DATE.matcher(v.strip()).matches()) {
          DateSpan span = DateSpan.parse(v);
          if (span != null) {
            long[] range = range(span);
            d.add(new LongRange(Schema.DATES, new long[] {range[0]}, new long[] {range[1]}));
            if (first) {
              d.add(new LongRange(Schema.DATE_PREFIX + f.key(), new long[] {range[0]}, new long[] {range[1]}));
            }
          }
        }
        first = false;
      }
    }
    DateSpan def = RecordDates.of(r, null);
    if (def != null) {
      long[] range = range(def);
      d.add(new LongRange(Schema.DATE_DEFAULT, new long[] {range[0]}, new long[] {range[1]}));
    }
  }

  /** A span {@code [start, end)} as the inclusive millisecond range Lucene ranges hold. */
  static long[] range(DateSpan span) {
    return new long[] {millis(span.start()), millis(span.end()) - 1};
  }

  static long millis(Instant t) {
    if (t.equals(Instant.MIN)) {
      return Long.MIN_VALUE;
    }
    if (t.equals(Instant.MAX)) {
      return Long.MAX_VALUE;
    }
    try {
      return t.toEpochMilli();
    } catch (ArithmeticException e) {
      return t.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
