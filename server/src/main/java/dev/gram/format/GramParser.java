package dev.gram.format;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a {@code .gram} file. The parser is total: every input gives either a {@link GramFile} or
 * a {@link Failure} naming the 1-based line and what is wrong with it. Nothing is dropped
 * silently: a line the grammar does not allow is an error.
 *
 * <p>See {@code docs/gram-format.md} for the grammar.
 *
 * <p>Why one class of about 400 lines: it is the grammar of docs/gram-format.md §3–§8 read top to
 * bottom, one method per production; split across classes, the parser would no longer read as the
 * specification it implements.
 */
public final class GramParser {

  /** The outcome of a parse. */
  public sealed interface Result permits Success, Failure {}

  public record Success(GramFile file) implements Result {}

  public record Failure(int line, String message) implements Result {
    @Override
    public String toString() {
      return "line " + line + ": " + message;
    }
  }

  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern PREDICATE = Pattern.compile("[a-z][a-z-]*");
  private static final Pattern ESCAPED = Pattern.compile("^\\\\+::");

  private final String[] lines;
  private int pos; // index of the next line to read

  private GramParser(String text) {
    this.lines = splitLines(text);
  }

  public static Result parse(String text) {
    try {
      return new Success(new GramParser(text).file());
    } catch (SyntaxError e) {
      return new Failure(e.line, e.getMessage());
    } catch (RuntimeException e) {
      // A defect in the parser must still name where it happened, never escape as a crash.
      return new Failure(0, "unreadable file: " + e);
    }
  }

  /** Parses and returns the file, or throws {@link IllegalArgumentException} with the failure. */
  public static GramFile parseOrThrow(String text) {
    Result r = parse(text);
    if (r instanceof Success s) {
      return s.file();
    }
    throw new IllegalArgumentException(r.toString());
  }

  private static String[] splitLines(String text) {
    List<String> out = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int nl = text.indexOf('\n', start);
      if (nl < 0) {
        out.add(text.substring(start));
        break;
      }
      out.add(text.substring(start, nl));
      start = nl + 1;
    }
    return out.toArray(new String[0]);
  }

  private static final class SyntaxError extends RuntimeException {
    final int line;

    SyntaxError(int line, String message) {
      super(message, null, false, false);
      this.line = line;
    }
  }

  private SyntaxError error(int index, String message) {
    return new SyntaxError(index + 1, message);
  }

  /** A line outside blocks, without a Windows line end. */
  private String structural(int index) {
    String l = lines[index];
    return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
  }

  private GramFile file() {
    skipBlank();
    if (pos >= lines.length) {
      throw error(Math.max(0, lines.length - 1), "empty file: expected the header @gram 2");
    }
    String header = structural(pos);
    if (!header.equals(GramWriter.HEADER)) {
      throw error(pos, "expected the header @gram 2, found " + quote(header));
    }
    pos++;
    skipBlank();
    if (pos >= lines.length) {
      throw error(lines.length - 1, "expected the owner line doc <id>");
    }
    String ownerLine = structural(pos);
    if (!ownerLine.startsWith("doc ")) {
      throw error(pos, "expected the owner line doc <id>, found " + quote(ownerLine));
    }
    String ownerId = ownerLine.substring(4);
    if (!Syntax.isId(ownerId)) {
      throw error(pos, "invalid document id " + quote(ownerId));
    }
    pos++;
    Entity owner = entityBody(EntityType.DOCUMENT, ownerId, pos - 1);
    List<Entity> records = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    ids.add(ownerId);
    while (true) {
      skipBlank();
      if (pos >= lines.length) {
        return GramFile.withoutHistory(new GramDocument(owner, records));
      }
      String line = structural(pos);
      if (line.startsWith("@history")) {
        GramDocument state = new GramDocument(owner, records);
        return history(state);
      }
      int sp = line.indexOf(' ');
      String word = sp < 0 ? line : line.substring(0, sp);
      EntityType type = EntityType.ofRecordWord(word);
      if (type == null) {
        throw error(pos, "expected a record line <TYPE> <id>, found " + quote(line));
      }
      if (sp < 0 || !Syntax.isId(line.substring(sp + 1))) {
        throw error(pos, "invalid record id in " + quote(line));
      }
      String id = line.substring(sp + 1);
      if (!ids.add(id)) {
        throw error(pos, "duplicate id " + id);
      }
      int headerLine = pos;
      pos++;
      records.add(entityBody(type, id, headerLine));
    }
  }

  private void skipBlank() {
    while (pos < lines.length && structural(pos).isBlank()) {
      pos++;
    }
  }

  /** Reads fields, links and blocks until the next entity, the history, or the end. */
  private Entity entityBody(EntityType type, String id, int headerLine) {
    Map<String, List<String>> fields = new LinkedHashMap<>();
    List<Link> links = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    Set<String> blockNames = new HashSet<>();
    while (pos < lines.length) {
      String line = structural(pos);
      if (line.isBlank()) {
        // A blank line may separate entities; look past it.
        int save = pos;
        skipBlank();
        if (pos >= lines.length || startsEntityOrHistory(structural(pos), true)) {
          break;
        }
        pos = save + 1;
        continue;
      }
      if (startsEntityOrHistory(line, false)) {
        break;
      }
      if (line.startsWith("::")) {
        String name = line.substring(2);
        if (!Syntax.isBlockName(name)) {
          throw error(pos, "invalid block name " + quote(name));
        }
        if (!blockNames.add(name)) {
          throw error(pos, "block ::" + name + " appears twice in " + id);
        }
        int open = pos;
        pos++;
        blocks.add(new Block(name, blockText(name, open)));
        continue;
      }
      if (line.startsWith("->")) {
        if (type == EntityType.DOCUMENT) {
          throw error(pos, "the doc owner has no links");
        }
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || !parts[0].equals("->")) {
          throw error(pos, "expected a link -> <predicate> <target>, found " + quote(line));
        }
        if (!PREDICATE.matcher(parts[1]).matches()) {
          throw error(pos, "invalid link predicate " + quote(parts[1]));
        }
        if (!Syntax.isTarget(parts[2])) {
          throw error(pos, "invalid link target " + quote(parts[2]));
        }
        links.add(new Link(parts[1], parts[2]));
        pos++;
        continue;
      }
      int sp = line.indexOf(' ');
      String key = sp < 0 ? line : line.substring(0, sp);
      if (!Syntax.isKey(key)) {
        throw error(pos, "expected a field <key> <value>, found " + quote(line));
      }
      String value;
      if (sp < 0) {
        value = "";
      } else {
        value = Values.decode(line.substring(sp + 1));
        if (value == null) {
          throw error(pos, "malformed quoted value for " + key);
        }
      }
      fields.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
      pos++;
    }
    List<Field> fieldList = new ArrayList<>(fields.size());
    fields.forEach((k, v) -> fieldList.add(new Field(k, v)));
    return new Entity(type, id, fieldList, links, blocks);
  }

  /**
   * Whether a line starts the next entity or the history. A record code always does; a lowercase
   * type name only after a blank line, since names such as {@code source} are also field keys.
   */
  private static boolean startsEntityOrHistory(String line, boolean afterBlank) {
    if (line.startsWith("@")) {
      return true;
    }
    int sp = line.indexOf(' ');
    String word = sp < 0 ? line : line.substring(0, sp);
    if (word.equals("doc") || EntityType.ofCode(word) != null) {
      return true;
    }
    return afterBlank && EntityType.ofRecordWord(word) != null;
  }

  private String blockText(String name, int openLine) {
    StringBuilder sb = new StringBuilder();
    boolean first = true;
    while (pos < lines.length) {
      String raw = lines[pos];
      String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
      if (line.equals("::end")) {
        pos++;
        return sb.toString();
      }
      if (raw.startsWith("::")) {
        throw error(pos, "a line starting with :: inside ::" + name + " must be written \\::");
      }
      if (ESCAPED.matcher(raw).find()) {
        raw = raw.substring(1);
      }
      if (!first) {
        sb.append('\n');
      }
      sb.append(raw);
      first = false;
      pos++;
    }
    throw error(openLine, "block ::" + name + " has no ::end");
  }

  /**
   * Parses one history entry as {@link HistoryCodec#fileEntry} writes it ({@code @rev} through
   * {@code chain}); the write-ahead log stores revisions in this form.
   *
   * @throws IllegalArgumentException when the text is not exactly one complete entry
   */
  public static Revision parseRevision(String entry) {
    GramParser p = new GramParser(entry);
    try {
      Revision r = p.revision();
      p.skipBlank();
      if (p.pos < p.lines.length) {
        throw new IllegalArgumentException("text after the entry at line " + (p.pos + 1));
      }
      return r;
    } catch (SyntaxError e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  // ---------------------------------------------------------------- history

  private GramFile history(GramDocument state) {
    String head = structural(pos);
    String[] hp = head.split(" ", -1);
    if (hp.length != 3 || !hp[0].equals("@history")) {
      throw error(pos, "expected @history <rev> <chain>, found " + quote(head));
    }
    int headRev = number(hp[1], pos);
    if (!HEX64.matcher(hp[2]).matches()) {
      throw error(pos, "invalid chain hash in @history");
    }
    pos++;
    List<Revision> revisions = new ArrayList<>();
    while (true) {
      skipBlank();
      if (pos >= lines.length) {
        break;
      }
      revisions.add(revision());
    }
    if (revisions.isEmpty()) {
      throw error(lines.length - 1, "@history has no entries");
    }
    return new GramFile(state, revisions, headRev, hp[2]);
  }

  private Revision revision() {
    String first = structural(pos);
    if (!first.startsWith("@rev ")) {
      throw error(pos, "expected @rev <n>, found " + quote(first));
    }
    int rev = number(first.substring(5), pos);
    pos++;
    Instant at = null;
    String actor = null;
    String by = null;
    String eff = null;
    String req = null;
    String digest = null;
    String state = null;
    String chain = null;
    List<Revision.Change> changes = new ArrayList<>();
    List<Revision.Hunk> delta = new ArrayList<>();
    while (pos < lines.length && chain == null) {
      String line = structural(pos);
      int sp = line.indexOf(' ');
      String key = sp < 0 ? line : line.substring(0, sp);
      String rest = sp < 0 ? "" : line.substring(sp + 1);
      switch (key) {
        case "at" -> {
          at = Times.parseInstant(rest);
          if (at == null) {
            throw error(pos, "invalid time " + quote(rest));
          }
        }
        case "actor" -> actor = rest;
        case "by" -> by = decoded(rest);
        case "eff" -> eff = decoded(rest);
        case "req" -> req = decoded(rest);
        case "digest" -> digest = hex(rest);
        case "chg" -> changes.add(change(rest));
        case "diff" -> {
          String[] p = rest.split(" ", -1);
          if (p.length != 2) {
            throw error(pos, "expected diff <start> <count>");
          }
          int start = number(p[0], pos);
          int count = number(p[1], pos);
          List<String> body = new ArrayList<>();
          pos++;
          while (pos < lines.length && lines[pos].startsWith("|")) {
            body.add(lines[pos].substring(1));
            pos++;
          }
          delta.add(new Revision.Hunk(start, count, body));
          continue;
        }
        case "state" -> state = hex(rest);
        case "chain" -> chain = hex(rest);
        default -> throw error(pos, "unexpected line in @rev " + rev + ": " + quote(line));
      }
      pos++;
    }
    if (at == null || actor == null || by == null || state == null || chain == null) {
      throw error(Math.min(pos, lines.length - 1), "@rev " + rev + " is incomplete");
    }
    return new Revision(rev, at, eff, actor, by, req, digest, changes, delta, state, chain);
  }

  private Revision.Change change(String rest) {
    String[] p = rest.split(" ", -1);
    Revision.Kind kind = p.length >= 2 ? Revision.Kind.of(p[0]) : null;
    if (kind == null || !(Syntax.isId(p[1]))) {
      throw error(pos, "expected chg <+|~|-> <id> ..., found " + quote(rest));
    }
    if (kind == Revision.Kind.SET) {
      return Revision.Change.changed(p[1], List.of(p).subList(2, p.length));
    }
    if (p.length != 3) {
      throw error(pos, "expected chg " + p[0] + " <id> <type>");
    }
    return new Revision.Change(kind, p[1], p[2], List.of());
  }

  private String decoded(String written) {
    String v = Values.decode(written);
    if (v == null) {
      throw error(pos, "malformed quoted value");
    }
    return v;
  }

  private String hex(String s) {
    if (!HEX64.matcher(s).matches()) {
      throw error(pos, "expected 64 hex digits, found " + quote(s));
    }
    return s;
  }

  private int number(String s, int line) {
    try {
      int n = Integer.parseInt(s);
      if (n < 0) {
        throw error(line, "negative number " + s);
      }
      return n;
    } catch (NumberFormatException e) {
      throw error(line, "expected a number, found " + quote(s));
    }
  }

  private static String quote(String s) {
    String shown = s.length() > 60 ? s.substring(0, 60) + "…" : s;
    return "\"" + shown + "\"";
  }
}
