package dev.gram.index;

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

/**
 * Turns one document of the vault into the Lucene documents that stand for it.
 *
 * <p>A <em>unit</em> is what a hit can be: a record, or a chunk of a body section (the section's
 * heading path, and up to {@link #CHUNK_WORDS} words of its text). Every unit is also the text one
 * embedding vector is computed from; its {@link Unit#chunkKey()} is the hash of that text, so a
 * vector survives every revision that leaves its text alone.
 *
 * <p>Why one class of about 470 lines: every Lucene field the index writes, with its analysis, is
 * named here and nowhere else, so the index's schema can be read in one place; the searcher and
 * the keeper only use these names.
 */
final class DocMapper {
  private DocMapper() {}

  /** Words per section chunk: below the 256-token window of the embedding model. */
  static final int CHUNK_WORDS = 160;

  /** Words shared by two neighbouring chunks, so a sentence cut at a border is found in both. */
  static final int CHUNK_OVERLAP = 24;

  /** The fields whose values are dates by the profile; other fields are dates only when full. */
  private static final Set<String> DATE_KEYS = Set.of("at", "due", "observed");

  private static final Pattern FULL_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}([T ].*)?");
  private static final Pattern MD_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");
  private static final Pattern MD_ITEM = Pattern.compile("\\[\\[[^\\]]*\\]\\](\\{[^}]*\\})?");

  /** The fields whose text is not repeated in the record's {@code text}. */
  private static final Set<String> NOT_TEXT = Set.of("t", "view", "motion", "color");

  /** What a hit can be. */
  record Unit(
      String kind,
      String entityId,
      String type,
      String title,
      String titleText,
      String status,
      String context,
      List<String> text,
      Entity record,
      List<String> scopes,
      String embedText,
      String chunkKey) {}

  /** The units of a document, records first, then sections in body order. */
  static List<Unit> units(GramDocument doc) {
    List<Unit> out = new ArrayList<>();
    for (Entity r : doc.records()) {
      if (r.type() == EntityType.RELATION) {
        // An REL edge links two entities; it is found through them, not on its own.
        continue;
      }
      out.add(recordUnit(r));
    }
    out.addAll(sectionUnits(doc));
    return out;
  }

  private static Unit recordUnit(Entity r) {
    List<String> text = new ArrayList<>();
    text.add(r.type().typeName());
    for (Field f : r.fields()) {
      if (!NOT_TEXT.contains(f.key())) {
        text.addAll(f.values());
      }
    }
    for (Block b : r.blocks()) {
      text.add(b.text());
    }
    String d = r.first("d");
    int excerpt = d == null ? -1 : excerptStart(r.title(), d);
    StringBuilder embed = new StringBuilder();
    embed.append(r.type().typeName()).append(": ");
    if (excerpt >= 0) {
      // The title only repeats the start of the description ("Ana: I went to…"): say it once.
      embed.append(r.title(), 0, excerpt).append(d);
    } else {
      embed.append(r.title());
      if (d != null) {
        embed.append(". ").append(d);
      }
    }
    String body = embed.toString();
    for (Field f : r.fields()) {
      if (!NOT_TEXT.contains(f.key()) && !NOT_EMBEDDED.contains(f.key()) && !isDate(f)
          && !f.values().stream().allMatch(body::contains)) {
        embed.append(". ").append(String.join(", ", f.values()));
      }
    }
    for (Block b : r.blocks()) {
      embed.append(". ").append(b.text());
    }
    String e = clip(embed.toString(), 2000);
    return new Unit(
        Schema.KIND_RECORD,
        r.id(),
        r.type().typeName(),
        r.title(),
        excerpt >= 0 ? r.title().substring(0, excerpt) : r.title(),
        r.first("x"),
        null,
        text,
        r,
        r.values("s"),
        e,
        key(e));
  }

  /** Fields the embedding leaves out: the description and status are there already or say little. */
  private static final Set<String> NOT_EMBEDDED = Set.of("d", "x");

  private static boolean isDate(Field f) {
    return DATE_KEYS.contains(f.key()) || f.values().stream().allMatch(v -> FULL_DATE.matcher(v.strip()).matches());
  }

  /**
   * Where the part of a title that repeats the start of the description begins, or -1: in "Ana: I
   * went to the…" over "I went to the market", 5. A title cut with an ellipsis counts; at least
   * twelve characters must repeat.
   */
  static int excerptStart(String title, String description) {
    String t = title.strip();
    if (t.endsWith("…")) {
      t = t.substring(0, t.length() - 1);
    } else if (t.endsWith("...")) {
      t = t.substring(0, t.length() - 3);
    }
    t = t.stripTrailing();
    String d = description.strip();
    for (int i = 0; i + 12 <= t.length(); i++) {
      if ((i == 0 || !Character.isLetterOrDigit(t.charAt(i - 1))) && d.startsWith(t.substring(i))) {
        return i;
      }
    }
    return -1;
  }

  /** A heading path and the plain text under it (before the next heading of any level). */
  private record Section(String path, List<String> text) {}

  private static List<Unit> sectionUnits(GramDocument doc) {
    Entity owner = doc.owner();
    List<Section> sections = new ArrayList<>();
    List<String> preamble = new ArrayList<>();
    for (Field f : owner.fields()) {
      if (!NOT_TEXT.contains(f.key())) {
        preamble.addAll(f.values());
      }
    }
    List<String> headings = new ArrayList<>();
    List<Integer> levels = new ArrayList<>();
    String currentPath = null;
    List<String> current = preamble;
    for (BodyNode n : Body.parse(doc.body()).nodes()) {
      if (n.type() == NodeType.HEADING) {
        sections.add(new Section(currentPath, current));
        while (!levels.isEmpty() && levels.get(levels.size() - 1) >= n.level()) {
          levels.remove(levels.size() - 1);
          headings.remove(headings.size() - 1);
        }
        levels.add(n.level());
        headings.add(plain(n.text()));
        currentPath = String.join(" > ", headings);
        current = new ArrayList<>();
      } else {
        String t = nodeText(n);
        if (t != null && !t.isBlank()) {
          current.add(t);
        }
      }
    }
    sections.add(new Section(currentPath, current));

    List<Unit> out = new ArrayList<>();
    String title = doc.title().isEmpty() ? doc.id() : doc.title();
    for (Section s : sections) {
      boolean isPreamble = s.path() == null;
      // The part before the first heading is a unit only if it says something, or if the
      // document has nothing else: a document is always findable by its title.
      if (isPreamble && s.text().isEmpty() && sections.size() > 1) {
        continue;
      }
      if (!isPreamble && s.text().isEmpty()) {
        out.add(sectionUnit(doc, title, s.path(), List.of()));
        continue;
      }
      for (List<String> chunk : chunks(s.text())) {
        out.add(sectionUnit(doc, title, s.path(), chunk));
      }
    }
    return out;
  }

  private static Unit sectionUnit(GramDocument doc, String title, String path, List<String> text) {
    String body = String.join("\n", text);
    String e = clip(title + (path == null ? "" : " — " + path) + (body.isEmpty() ? "" : ": " + body), 2000);
    return new Unit(
        Schema.KIND_SECTION,
        doc.id(),
        EntityType.DOCUMENT.typeName(),
        title,
        title,
        doc.owner().first("x"),
        path,
        text,
        null,
        doc.owner().values("s"),
        e,
        key(e));
  }

  /** Splits a section's paragraphs into windows of at most {@link #CHUNK_WORDS} words. */
  static List<List<String>> chunks(List<String> paragraphs) {
    List<String> words = new ArrayList<>();
    List<Integer> breaks = new ArrayList<>(); // word index where a paragraph starts
    for (String p : paragraphs) {
      breaks.add(words.size());
      for (String w : p.strip().split("\\s+")) {
        if (!w.isEmpty()) {
          words.add(w);
        }
      }
    }
    List<List<String>> out = new ArrayList<>();
    if (words.size() <= CHUNK_WORDS) {
      out.add(paragraphs);
      return out;
    }
    int start = 0;
    while (start < words.size()) {
      int end = Math.min(words.size(), start + CHUNK_WORDS);
      out.add(List.of(String.join(" ", words.subList(start, end))));
      if (end == words.size()) {
        break;
      }
      start = end - CHUNK_OVERLAP;
    }
    return out;
  }

  private static String nodeText(BodyNode n) {
    switch (n.type()) {
      case PARAGRAPH:
      case QUOTE:
      case CALLOUT:
      case CODE:
      case MATH:
        return plain(n.text());
      case LIST:
        {
          StringBuilder sb = new StringBuilder();
          for (BodyNode.ListItem item : n.items()) {
            sb.append(plain(item.text())).append('\n');
          }
          return sb.toString();
        }
      case TABLE:
        return plain(n.md().replaceAll("(?m)^\\s*\\|?[\\s:|-]*$", "").replace('|', ' '));
      case IMAGE:
        return n.attrs().get("alt");
      default:
        // Items and collections place records, which are units of their own; dividers say nothing.
        return null;
    }
  }

  /** Markdown to the words a reader sees: link labels stay, targets and item markers go. */
  static String plain(String md) {
    if (md == null) {
      return "";
    }
    String s = MD_LINK.matcher(md).replaceAll("$1");
    s = MD_ITEM.matcher(s).replaceAll(" ");
    return s;
  }

  private static String clip(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max);
  }

  static String key(String embedText) {
    return Hashes.sha256(embedText).substring(0, 32);
  }

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
   * vector), so a commit need not rewrite it. Records are immutable and shared between the states
   * of a document, so for an unchanged record the comparison is one identity check, and its unit
   * is only built ({@link #unit()}) when the record did change: planning a commit to a document
   * of thousands of records costs a walk over them, not thousands of units.
   */
  record Planned(String key, Object signature, Entity record, Unit section) {
    Unit unit() {
      return section != null ? section : recordUnit(record);
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
    String recordPrefix = path + "\u0000" + Schema.KIND_RECORD + "\u0000";
    for (Entity r : doc.records()) {
      if (r.type() != EntityType.RELATION) {
        out.add(new Planned(recordPrefix + r.id(), r, r, null));
      }
    }
    for (Unit u : sectionUnits(doc)) {
      String base = path + "\u0000" + u.kind() + "\u0000" + u.entityId() + "\u0000" + u.chunkKey();
      String key = base + "\u0000" + seen.merge(base, 1, Integer::sum);
      out.add(new Planned(key, List.of(docTitle, String.valueOf(u.context()), u.text(), u.scopes()), null, u));
    }
    return out;
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
    d.add(new StoredField(Schema.STITLE, u.title()));
    if (u.status() != null) {
      d.add(new StoredField(Schema.STATUS, u.status()));
    }
    for (String s : u.scopes()) {
      d.add(new StringField(Schema.SCOPE, s, Store.NO));
    }
    if (Schema.KIND_RECORD.equals(u.kind())) {
      d.add(new TextField(Schema.TITLE, u.titleText(), Store.NO));
      d.add(new TextField(Schema.TITLE_X, u.title(), Store.NO));
      for (String who : u.record().values("owner")) {
        d.add(new TextField(Schema.WHO, who, Store.NO));
      }
      addDates(d, u.record());
    } else {
      boolean bare = u.context() == null && u.text().isEmpty();
      d.add(new TextField(bare ? Schema.BARE_TITLE : Schema.DTITLE, docTitle, Store.NO));
      d.add(new TextField(Schema.TITLE_X, docTitle, Store.NO));
      if (u.context() != null) {
        d.add(new StoredField(Schema.CONTEXT, u.context()));
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
