package dev.gram.server.cli;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One document's current state as Markdown for people (front matter, the body with each placed
 * record drawn where it stands, tasks as {@code - [ ]}/{@code - [x]} items) or as JSON for other
 * tools (every field, link and block). Pure.
 */
final class DocumentExport {
  private static final Pattern ITEM = Pattern.compile("^\\[\\[([^\\]*/\\s][^\\]\\s]*)\\]\\]\\s*$");
  /** Task statuses drawn as a checked box. */
  static final Set<String> DONE = Set.of("done", "closed", "complete", "completed", "resolved");

  private DocumentExport() {}

  /** What is exported of one document besides its state. */
  record Meta(String path, int revision, String hash) {}

  /**
   * @param titles the title of another document by its id (null when unknown), so that a relation
   *     to a document reads as a {@code [[wiki link]]} to it, which {@code import} turns back into
   *     a relation
   */
  static String markdown(GramDocument doc, Meta meta, java.util.function.Function<String, String> titles) {
    StringBuilder sb = new StringBuilder("---\n");
    sb.append("id: ").append(Json.encode(doc.id())).append('\n');
    sb.append("title: ").append(Json.encode(doc.title() == null ? "" : doc.title())).append('\n');
    for (Field f : doc.owner().fields()) {
      if (!f.key().equals("t")) {
        sb.append(yamlKey(f.key())).append(": ").append(yamlValue(f.values())).append('\n');
      }
    }
    sb.append("revision: ").append(meta.revision()).append('\n');
    sb.append("hash: ").append(meta.hash()).append('\n');
    sb.append("path: ").append(Json.encode(meta.path())).append('\n');
    sb.append("---\n\n");
    Set<String> placed = new HashSet<>();
    boolean fence = false;
    String body = doc.body();
    for (String line : body.split("\n", -1)) {
      if (line.startsWith("```") || line.startsWith("~~~")) {
        fence = !fence;
      }
      Matcher m = ITEM.matcher(line);
      Entity r = !fence && m.matches() ? doc.record(m.group(1)) : null;
      if (r != null) {
        placed.add(r.id());
        sb.append(record(r, titles));
      } else {
        sb.append(line).append('\n');
      }
    }
    List<Entity> rest = doc.records().stream().filter(r -> !placed.contains(r.id())).toList();
    if (!rest.isEmpty()) {
      if (!body.isEmpty() && !body.endsWith("\n\n")) {
        sb.append('\n');
      }
      sb.append("## Records\n\n");
      for (Entity r : rest) {
        sb.append(record(r, titles));
      }
    }
    return sb.toString();
  }

  /** One record as a list item: tasks as check boxes, others by type with fields and links below. */
  static String record(Entity r, java.util.function.Function<String, String> titles) {
    String title = r.title() == null ? r.id() : r.title();
    if (r.type() == EntityType.TASK) {
      String x = r.first("x");
      return "- [" + (x != null && DONE.contains(x.toLowerCase(java.util.Locale.ROOT)) ? "x" : " ") + "] "
          + oneLine(title) + "\n";
    }
    StringBuilder sb = new StringBuilder();
    String to = r.type() == EntityType.RELATION ? r.first("to") : null;
    String toDoc = to != null && to.indexOf('/') > 0 ? to.substring(0, to.indexOf('/')) : null;
    String toTitle = toDoc != null && to.equals(toDoc + "/" + toDoc) ? titles.apply(toDoc) : null;
    if (toTitle != null && !toTitle.contains("]") && !toTitle.contains("|")) {
      sb.append("- ").append(r.first("rel")).append(": [[").append(toTitle).append("]]\n");
    } else if (r.type() == EntityType.RELATION) {
      sb.append("- **relation** ").append(r.first("from")).append(" —").append(r.first("rel")).append("→ ")
          .append(r.first("to")).append('\n');
    } else {
      sb.append("- **").append(r.type().typeName()).append("** ").append(oneLine(title)).append('\n');
    }
    for (Field f : r.fields()) {
      if (!f.key().equals("t") && !(r.type() == EntityType.RELATION && Set.of("from", "rel", "to").contains(f.key()))) {
        sb.append("  - ").append(f.key()).append(": ").append(oneLine(String.join(", ", f.values()))).append('\n');
      }
    }
    for (Link l : r.links()) {
      sb.append("  - ").append(l.predicate()).append(" → ").append(l.target()).append('\n');
    }
    for (Block b : r.blocks()) {
      sb.append("  - ").append(b.name()).append(": ").append(oneLine(b.text())).append('\n');
    }
    return sb.toString();
  }

  static JsonObject json(GramDocument doc, Meta meta) {
    JsonArray records = new JsonArray();
    for (Entity r : doc.records()) {
      records.add(entity(r));
    }
    return new JsonObject()
        .put("path", meta.path())
        .put("id", doc.id())
        .put("title", doc.title())
        .put("revision", meta.revision())
        .put("hash", meta.hash())
        .put("fields", fields(doc.owner()))
        .put("body", doc.body())
        .put("records", records);
  }

  private static JsonObject entity(Entity e) {
    JsonObject blocks = new JsonObject();
    for (Block b : e.blocks()) {
      blocks.put(b.name(), b.text());
    }
    JsonArray links = new JsonArray();
    for (Link l : e.links()) {
      links.add(new JsonObject().put("predicate", l.predicate()).put("target", l.target()));
    }
    return new JsonObject().put("type", e.type().typeName()).put("id", e.id()).put("fields", fields(e))
        .put("links", links).put("blocks", blocks);
  }

  private static JsonObject fields(Entity e) {
    JsonObject o = new JsonObject();
    for (Field f : e.fields()) {
      o.put(f.key(), new JsonArray(List.copyOf(f.values())));
    }
    return o;
  }

  private static String yamlKey(String key) {
    return key.matches("[A-Za-z][A-Za-z0-9_-]*") ? key : Json.encode(key);
  }

  private static String yamlValue(List<String> values) {
    if (values.size() == 1) {
      return Json.encode(values.get(0));
    }
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(Json.encode(values.get(i)));
    }
    return sb.append(']').toString();
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.replace("\r", "").replace('\n', ' ');
  }
}
