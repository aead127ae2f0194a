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

/**
 * What a document is split into for search: its <em>units</em>. A unit is what a hit can be: a
 * record, or a chunk of a body section (the section's heading path, and up to {@link
 * #CHUNK_WORDS} words of its text). Every unit is also the text one embedding vector is computed
 * from (for an event between events, its own text followed by its neighbours' openings, {@link
 * #embeddingContext}); its {@link Unit#chunkKey()} is the hash of that text, so a vector survives
 * every revision that leaves that text alone. An event's unit also carries the text of its
 * neighbour events ({@link #near}), which keyword search reads at a low weight. Pure: no Lucene, no I/O;
 * {@link DocMapper} turns units into Lucene documents.
 */
final class DocUnits {
  private DocUnits() {}

  /** Words per section chunk: below the 256-token window of the embedding model. */
  static final int CHUNK_WORDS = 160;

  /** Words shared by two neighbouring chunks, so a sentence cut at a border is found in both. */
  static final int CHUNK_OVERLAP = 24;

  /** The fields whose values are dates by the profile; other fields are dates only when full. */
  static final Set<String> DATE_KEYS = Set.of("at", "due", "observed");

  static final Pattern FULL_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}([T ].*)?");
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
      String chunkKey,
      String near) {}

  /** The units of a document, records first, then sections in body order. */
  static List<Unit> units(GramDocument doc) {
    List<Unit> out = new ArrayList<>();
    List<Entity> records = searchedRecords(doc);
    for (int i = 0; i < records.size(); i++) {
      out.add(recordUnit(records.get(i), i > 0 ? records.get(i - 1) : null, i + 1 < records.size() ? records.get(i + 1) : null));
    }
    out.addAll(sectionUnits(doc));
    return out;
  }

  /** The records that are units, in document order: all but REL edges, found through what they link. */
  static List<Entity> searchedRecords(GramDocument doc) {
    List<Entity> out = new ArrayList<>(doc.records().size());
    for (Entity r : doc.records()) {
      if (searched(r)) {
        out.add(r);
      }
    }
    return out;
  }

  /** Whether a record is a unit of its own ({@link #searchedRecords}). */
  static boolean searched(Entity r) {
    return r.type() != EntityType.RELATION;
  }

  /**
   * For an event, the text of the events just before and after it (either may be missing), or
   * null. A turn of a conversation is understood through its neighbours: it answers the one
   * before it ("Luna destroyed the couch cushions" follows the news of a new puppy), and the reply
   * after it names its topic. Their words are indexed with the event at a low weight ({@link
   * Queries#NEAR_BOOST}), so they find it when its own text lacks them and never outrank a record
   * that has them. Events only, as for the vectors ({@link #embeddingContext}): a task or a
   * decision stands alone (on the labelled corpus their neighbours changed nothing), and an index
   * without such text costs no lookups in it.
   */
  static String near(Entity r, Entity before, Entity after) {
    return neighbours(r, before, NEAR_WORDS, after, NEAR_WORDS, "\n");
  }

  /** Words of each neighbour a record is searched with: a long neighbour does not swell the index. */
  static final int NEAR_WORDS = 80;

  /** Words of the event before an event that its embedding reads. */
  static final int BEFORE_WORDS = 30;

  /** Words of the event after an event that its embedding reads: a reply's opening names its topic. */
  static final int AFTER_WORDS = 12;

  /**
   * What the embedding of record {@code r} reads after its own text: for an event between events
   * (a turn of a conversation, an entry of a log), the start of the one before and the opening of
   * the one after; else null. A turn is understood through its neighbours ("Luna destroyed the
   * couch cushions" after the news of a puppy, before "Oh no, puppies!"), and reading them into
   * its vector raised recall@5 on two generated conversation corpora by 7 and 2 points, recall@10
   * by 10 and 7 (docs/recall.md). Events only: a task or a decision stands alone, and reading its
   * neighbours into its vector lowered the labelled corpus's semantic recall@5 from 0.90 to 0.86.
   * The cost: an event appended after another changes that one's vector too, so a growing log
   * embeds about two units per new event.
   */
  static String embeddingContext(Entity r, Entity before, Entity after) {
    return neighbours(r, before, BEFORE_WORDS, after, AFTER_WORDS, " / ");
  }

  /** For an event, the first words of the events beside it, joined; null for other records or none. */
  private static String neighbours(Entity r, Entity before, int beforeWords, Entity after, int afterWords, String join) {
    if (r.type() != EntityType.EVENT) {
      return null;
    }
    String b = before != null && before.type() == EntityType.EVENT ? firstWords(neighbourText(before), beforeWords) : null;
    String a = after != null && after.type() == EntityType.EVENT ? firstWords(neighbourText(after), afterWords) : null;
    if (b == null) {
      return a;
    }
    return a == null ? b : b + join + a;
  }

  private static String firstWords(String t, int n) {
    if (t == null) {
      return null;
    }
    String[] words = t.strip().split("\\s+");
    return words.length <= n ? String.join(" ", words) : String.join(" ", java.util.Arrays.copyOf(words, n));
  }

  private static String neighbourText(Entity r) {
    String d = r.first("d");
    return d != null ? d : r.title().isEmpty() ? null : r.title();
  }

  static Unit recordUnit(Entity r, Entity before, Entity after) {
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
    String context = embeddingContext(r, before, after);
    if (context != null) {
      // After the record's own text, so a long record keeps its own words within the model's window.
      embed.append(" (after: ").append(context).append(')');
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
        key(e),
        near(r, before, after));
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

  static List<Unit> sectionUnits(GramDocument doc) {
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
        key(e),
        null);
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
}
