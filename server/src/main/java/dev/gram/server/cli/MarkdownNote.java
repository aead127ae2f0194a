package dev.gram.server.cli;

import dev.gram.format.EntityType;
import dev.gram.format.Syntax;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Markdown note turned into the content of a new document, as {@code gram_create} takes it:
 * front matter becomes the document's fields, {@code - [ ]}/{@code - [x]} items become task
 * records placed where they stood, {@code [[wiki links]]} to notes of the same import become
 * Markdown links plus a relation record, and everything else (headings, paragraphs, lists,
 * tables, code) stays the md body as written. What could not be converted is listed, not dropped
 * silently. Pure: text in, content out.
 */
final class MarkdownNote {
  private static final Pattern TASK = Pattern.compile("^[-*+] \\[([ xX])\\] (.*)$");
  private static final Pattern NESTED_TASK = Pattern.compile("^\\s+[-*+] \\[[ xX]\\] .*$");
  private static final Pattern WIKI = Pattern.compile("(!?)\\[\\[([^\\]|#\\n]*)(#[^\\]|\\n]*)?(?:\\|([^\\]\\n]+))?\\]\\]");
  private static final Pattern HEADING = Pattern.compile("^#\\s+(.+?)\\s*#*\\s*$");
  /** Front matter keys an export wrote about the document, not fields of it. */
  private static final Set<String> EXPORT_KEYS = Set.of("revision", "hash", "path");

  /** A note another note may link to: where it will be and its document id. */
  record Target(String path, String documentId) {}

  /**
   * The new document: its id and title, the content for {@code Creation.build}, counts, and what
   * could not be converted.
   */
  record Converted(String documentId, String title, JsonObject content, int tasks, int links, List<String> problems) {}

  private MarkdownNote() {}

  /** The document id a note asks for in its front matter (an export's {@code id}), or null. */
  static String requestedId(FrontMatter fm) {
    List<String> id = fm.values().get("id");
    return id != null && id.size() == 1 && id.get(0).matches("d_[0-9a-f]{32}") ? id.get(0) : null;
  }

  /** The title: front matter's {@code title}, else the first {@code # } heading, else the file's name. */
  static String title(FrontMatter fm, String fileStem) {
    List<String> t = fm.values().get("title");
    if (t != null && !t.isEmpty() && !t.get(0).isBlank()) {
      return t.get(0).strip();
    }
    boolean fence = false;
    for (String line : fm.rest().split("\n")) {
      fence ^= line.startsWith("```") || line.startsWith("~~~");
      Matcher m = HEADING.matcher(line);
      if (!fence && m.matches()) {
        return m.group(1);
      }
    }
    return fileStem;
  }

  static Converted convert(String markdown, String fileStem, String documentId, Function<String, Target> wikiTargets) {
    String text = markdown.replace("\r\n", "\n").replace('\r', '\n');
    FrontMatter fm = FrontMatter.parse(text);
    List<String> problems = new ArrayList<>(fm.problems());
    String title = title(fm, fileStem);
    JsonObject fields = fields(fm, problems);
    JsonArray records = new JsonArray();
    Set<String> linked = new LinkedHashSet<>();
    StringBuilder body = new StringBuilder();
    boolean fence = false;
    int tasks = 0;
    int nested = 0;
    for (String line : fm.rest().split("\n", -1)) {
      if (line.startsWith("```") || line.startsWith("~~~")) {
        fence = !fence;
      }
      Matcher task = fence ? null : TASK.matcher(line);
      if (task != null && task.matches() && !task.group(2).isBlank()) {
        String id = "tsk_" + hex();
        records.add(new JsonObject().put("type", "task").put("id", id).put("fields", new JsonObject()
            .put("t", new JsonArray().add(plain(task.group(2), wikiTargets, linked, problems)))
            .put("x", new JsonArray().add(task.group(1).equals(" ") ? "open" : "done"))));
        body.append("[[").append(id).append("]]\n");
        tasks++;
        continue;
      }
      if (!fence && NESTED_TASK.matcher(line).matches()) {
        nested++;
      }
      body.append(fence ? line : links(line, wikiTargets, linked, problems)).append('\n');
    }
    if (nested > 0) {
      problems.add(nested + " indented task item" + (nested == 1 ? "" : "s") + " kept as text (only top-level - [ ] items become tasks)");
    }
    String md = body.toString().replaceAll("\n+$", "");
    for (String target : linked) {
      records.add(new JsonObject().put("type", "relation").put("id", "rel_" + hex()).put("fields", new JsonObject()
          .put("from", new JsonArray().add(documentId))
          .put("rel", new JsonArray().add("related"))
          .put("to", new JsonArray().add(target + "/" + target))));
    }
    JsonObject content = new JsonObject().put("text", md).put("records", records);
    if (!fields.isEmpty()) {
      content.put("fields", fields);
    }
    return new Converted(documentId, title, content, tasks, linked.size(), problems);
  }

  /** Front matter as document fields, under keys the format allows. */
  private static JsonObject fields(FrontMatter fm, List<String> problems) {
    boolean exported = requestedId(fm) != null;
    JsonObject out = new JsonObject();
    for (Map.Entry<String, List<String>> e : fm.values().entrySet()) {
      String key = e.getKey();
      if (key.equals("title") || key.equals("id") || (exported && EXPORT_KEYS.contains(key))) {
        continue;
      }
      String k = key.equals("tags") ? "tag" : key.equals("t") ? null : key;
      if (k == null || !Syntax.isKey(k) || k.equals("doc") || EntityType.ofCode(k) != null) {
        problems.add("front matter key " + key + " is not a valid field key; left out");
        continue;
      }
      JsonArray vs = out.getJsonArray(k, new JsonArray());
      e.getValue().forEach(vs::add);
      out.put(k, vs);
    }
    return out;
  }

  /** A line with its wiki links made Markdown links (when the target was imported) or text. */
  private static String links(String line, Function<String, Target> targets, Set<String> linked, List<String> problems) {
    Matcher m = WIKI.matcher(line);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String name = m.group(2).strip();
      String label = m.group(4) != null ? m.group(4).strip() : name + (m.group(3) == null ? "" : m.group(3));
      String replacement;
      Target t = m.group(1).isEmpty() && !name.isEmpty() ? targets.apply(name) : null;
      if (t != null) {
        linked.add(t.documentId());
        replacement = "[" + label + "](" + t.path() + ")";
      } else {
        replacement = label;
        problems.add((m.group(1).isEmpty() ? "wiki link [[" : "embedded file ![[") + m.group(2)
            + "]]: no note of that name in this import; kept as text");
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  private static String plain(String s, Function<String, Target> targets, Set<String> linked, List<String> problems) {
    return links(s, targets, linked, problems).strip();
  }

  private static String hex() {
    byte[] b = new byte[4];
    ThreadLocalRandom.current().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** The key a wiki link names a note by: its file name or title, case and spacing folded. */
  static String linkKey(String name) {
    return name.strip().toLowerCase(Locale.ROOT).replaceAll("[\\s_-]+", " ");
  }
}
