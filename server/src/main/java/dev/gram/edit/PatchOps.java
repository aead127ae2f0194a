package dev.gram.edit;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.Link;
import dev.gram.format.Syntax;
import dev.gram.format.body.Body;
import dev.gram.format.body.BodyNode;
import dev.gram.format.body.NodeType;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operations of {@code gram_patch}, applied in order to one state; all of them make one
 * revision, or, if any cannot apply, none does.
 *
 * <pre>
 * records  add {record, place?}        del {entity}
 * fields   set {entity, key, value}    append {entity, key, value}
 *          remove {entity, key, value} unset {entity, key}
 * blocks   block {entity, name, text}  (text null removes the block)
 * links    link {entity, predicate, target}   unlink {entity, predicate, target}
 *          rel {from, predicate, to, id?, fields?}   (an REL edge; remove it with del)
 * body     insert {md|rich, after|before|section|at}   replace {node, md|rich}
 *          drop {node}   move {node, after|before|section|at}   body {md|rich}
 * </pre>
 *
 * <p>{@code entity} is a record id or {@code doc} for the owner. {@code place} is {@code "end"},
 * {@code {after: id}}, {@code {before: id}} or {@code {section: heading}}; ids there may be node
 * ids or record ids (meaning where that record is placed). {@code del} also removes the record's
 * placements, the links in this document that point at it, and the REL edges that start or end at
 * it; links from other documents are left as they are and read as unresolved.
 *
 * <p>Why one class of about 420 lines: it is the one definition of what each patch operation means,
 * a method per operation behind one switch, sharing the same argument checks; an agent's
 * operation is defined in exactly one place. Where a block goes in the body is {@link BodyEdits}'s.
 */
public final class PatchOps implements PatchEngine {

  private static final Pattern MENTION = Pattern.compile("\\[[^\\]]*\\]\\(@([^)\\s]+)\\)");

  private static final Map<String, Set<String>> KEYS =
      Map.ofEntries(
          Map.entry("add", Set.of("op", "record", "place")),
          Map.entry("set", Set.of("op", "entity", "key", "value")),
          Map.entry("append", Set.of("op", "entity", "key", "value")),
          Map.entry("remove", Set.of("op", "entity", "key", "value")),
          Map.entry("unset", Set.of("op", "entity", "key")),
          Map.entry("del", Set.of("op", "entity")),
          Map.entry("block", Set.of("op", "entity", "name", "text")),
          Map.entry("link", Set.of("op", "entity", "predicate", "target", "link")),
          Map.entry("unlink", Set.of("op", "entity", "predicate", "target", "link")),
          Map.entry("rel", Set.of("op", "id", "from", "predicate", "to", "fields")),
          Map.entry("insert", Set.of("op", "md", "rich", "after", "before", "section", "at")),
          Map.entry("replace", Set.of("op", "node", "md", "rich")),
          Map.entry("drop", Set.of("op", "node")),
          Map.entry("move", Set.of("op", "node", "after", "before", "section", "at")),
          Map.entry("body", Set.of("op", "md", "rich")));

  /** The operation names, for messages and the profile. */
  public static final List<String> OPERATIONS =
      List.of("add", "set", "append", "remove", "unset", "del", "block", "link", "unlink", "rel",
          "insert", "replace", "drop", "move", "body");

  @Override
  public Outcome apply(GramDocument base, JsonArray operations, Context context) {
    Work w = new Work(base, context);
    for (int i = 0; i < operations.size(); i++) {
      Object o = operations.getValue(i);
      String where = "operations[" + i + "]";
      if (!(o instanceof JsonObject op)) {
        throw Args.bad(where, "an operation is an object {op, ...}");
      }
      String name = Args.string(op, "op", where);
      Set<String> allowed = KEYS.get(name);
      if (allowed == null) {
        throw Args.bad(where, "unknown op " + name + "; use one of " + String.join(" ", OPERATIONS));
      }
      where = where + " (" + name + ")";
      Args.allowOnly(op, allowed, where);
      w.apply(name, op, where);
    }
    return w.finish();
  }

  /** The state as operations change it. */
  private static final class Work {
    private GramDocument doc;
    private final GramDocument base;
    private final Context context;
    private final Diagnostics diagnostics = new Diagnostics();
    private final Set<String> created = new LinkedHashSet<>();

    Work(GramDocument doc, Context context) {
      this.doc = doc;
      this.base = doc;
      this.context = context;
    }

    void apply(String name, JsonObject op, String where) {
      switch (name) {
        case "add" -> add(op, where);
        case "set" -> setField(op, where);
        case "append" -> append(op, where);
        case "remove" -> removeValue(op, where);
        case "unset" -> unset(op, where);
        case "del" -> delete(op, where);
        case "block" -> block(op, where);
        case "link", "unlink" -> link(op, where, name.equals("link"));
        case "rel" -> rel(op, where);
        case "insert" -> insert(op, where);
        case "replace" -> replace(op, where);
        case "drop" -> drop(op, where);
        case "move" -> move(op, where);
        case "body" -> setBody(bodyText(op, where, true));
        default -> throw Args.bad(where, "unknown op " + name);
      }
    }

    Outcome finish() {
      Records.checkRefs(doc, context::documentExists, diagnostics);
      if (!doc.body().equals(base.body()) || !doc.records().equals(base.records())) {
        checkBodyRefs(doc, context, diagnostics);
      }
      List<String> still = new ArrayList<>();
      for (String id : created) {
        if (doc.record(id) != null) {
          still.add(id);
        }
      }
      return new Outcome(doc, still, diagnostics.toJson());
    }

    // ---------------------------------------------------------------- records

    private void add(JsonObject op, String where) {
      Object r = op.getValue("record");
      if (!(r instanceof JsonObject rec)) {
        throw Args.bad(where, "record is required: {type, id?, fields, links?, blocks?}");
      }
      Entity e = Records.fromJson(rec, doc::contains, where, diagnostics);
      doc = doc.withRecord(e);
      created.add(e.id());
      Object place = op.getValue("place");
      if (place != null) {
        placeRecord(e.id(), place, where);
      }
    }

    private void placeRecord(String id, Object place, String where) {
      setBody(BodyEdits.place(doc.body(), "[[" + id + "]]", place, where));
    }


    private void delete(JsonObject op, String where) {
      String id = Args.string(op, "entity", where);
      if (isOwner(id)) {
        throw Args.bad(where, "the doc owner cannot be deleted");
      }
      Entity e = doc.record(id);
      if (e == null) {
        throw Args.bad(where, "no record " + id + " in this document");
      }
      doc = doc.withoutRecord(id);
      created.remove(id);
      String qualified = doc.id() + "/" + id;
      for (Entity r : List.copyOf(doc.records())) {
        if (r.type() == EntityType.RELATION
            && (id.equals(r.first("from")) || id.equals(r.first("to"))
                || qualified.equals(r.first("from")) || qualified.equals(r.first("to")))) {
          doc = doc.withoutRecord(r.id());
          continue;
        }
        List<Link> kept = new ArrayList<>();
        for (Link l : r.links()) {
          if (!l.target().equals(id) && !l.target().equals(qualified)) {
            kept.add(l);
          }
        }
        if (kept.size() != r.links().size()) {
          doc = doc.withRecord(r.withLinks(kept));
        }
      }
      List<String> blocks = new ArrayList<>();
      boolean removed = false;
      for (BodyNode n : Body.blocksWithoutIds(doc.body())) {
        if (n.type() == NodeType.ITEM && n.ref().equals(id)) {
          removed = true;
        } else {
          blocks.add(n.md());
        }
      }
      if (removed) {
        setBody(Body.join(blocks));
      }
    }

    private void rel(JsonObject op, String where) {
      String from = Args.string(op, "from", where);
      String predicate = Args.string(op, "predicate", where);
      String to = Args.string(op, "to", where);
      JsonObject rec = new JsonObject().put("type", "relation");
      String id = Args.optString(op, "id", where);
      if (id != null) {
        rec.put("id", id);
      }
      JsonObject fields = new JsonObject();
      Object extra = op.getValue("fields");
      if (extra instanceof JsonObject ef) {
        fields.mergeIn(ef);
      } else if (extra != null) {
        throw Args.bad(where, "fields must be an object");
      }
      fields.put("from", from).put("rel", predicate).put("to", to);
      rec.put("fields", fields);
      Entity e = Records.fromJson(rec, doc::contains, where, diagnostics);
      doc = doc.withRecord(e);
      created.add(e.id());
    }

    // ---------------------------------------------------------------- fields, blocks, links

    private Entity entity(JsonObject op, String where) {
      String id = Args.string(op, "entity", where);
      Entity e = isOwner(id) ? doc.owner() : doc.record(id);
      if (e == null) {
        throw Args.bad(where, "no entity " + id + " in this document (use doc for the owner)");
      }
      return e;
    }

    private boolean isOwner(String id) {
      return id.equals("doc") || id.equals(doc.id());
    }

    private String key(JsonObject op, String where) {
      String key = Args.string(op, "key", where);
      if (!Syntax.isKey(key)) {
        throw Args.bad(where, "invalid field key " + key);
      }
      return key;
    }

    private void put(Entity e) {
      doc = e.isOwner() ? doc.withOwner(e) : doc.withRecord(e);
    }

    private void setField(JsonObject op, String where) {
      Entity e = entity(op, where);
      String key = key(op, where);
      List<String> values = Args.values(op.getValue("value"), where);
      requireTitle(e, key, values, where);
      Entity changed = e.withField(key, values);
      checkRelationFields(changed, where);
      Records.checkValues(new Entity(e.type(), e.id(), List.of(new Field(key, values.isEmpty() ? List.of("") : values)), List.of(), List.of()), diagnostics);
      put(changed);
    }

    private void append(JsonObject op, String where) {
      Entity e = entity(op, where);
      String key = key(op, where);
      String value = Args.scalar(op.getValue("value"), where);
      List<String> values = new ArrayList<>(e.values(key));
      values.add(value);
      Records.checkValues(new Entity(e.type(), e.id(), List.of(new Field(key, List.of(value))), List.of(), List.of()), diagnostics);
      put(e.withField(key, values));
    }

    private void removeValue(JsonObject op, String where) {
      Entity e = entity(op, where);
      String key = key(op, where);
      String value = Args.scalar(op.getValue("value"), where);
      List<String> values = new ArrayList<>(e.values(key));
      if (!values.remove(value)) {
        throw Args.bad(where, (e.isOwner() ? "doc" : e.id()) + " has no " + key + " value " + value);
      }
      requireTitle(e, key, values, where);
      Entity changed = e.withField(key, values);
      checkRelationFields(changed, where);
      put(changed);
    }

    private void unset(JsonObject op, String where) {
      Entity e = entity(op, where);
      String key = key(op, where);
      if (e.field(key) == null) {
        throw Args.bad(where, (e.isOwner() ? "doc" : e.id()) + " has no field " + key);
      }
      requireTitle(e, key, List.of(), where);
      Entity changed = e.withField(key, List.of());
      checkRelationFields(changed, where);
      put(changed);
    }

    private static void requireTitle(Entity e, String key, List<String> values, String where) {
      if (key.equals("t") && !e.isOwner() && e.type() != EntityType.RELATION
          && (values.isEmpty() || values.get(0).isBlank())) {
        throw Args.bad(where, "a record keeps a title t; set it to a new value instead");
      }
    }

    private static void checkRelationFields(Entity e, String where) {
      if (e.type() == EntityType.RELATION) {
        Records.checkRelation(e, where);
      }
    }

    private void block(JsonObject op, String where) {
      Entity e = entity(op, where);
      String name = Args.string(op, "name", where);
      if (!Syntax.isBlockName(name)) {
        throw Args.bad(where, "invalid block name " + name);
      }
      if (e.isOwner() && name.equals(Block.RICH)) {
        throw Args.bad(where, "the body is changed with the body, insert, replace, drop and move operations");
      }
      Object text = op.getValue("text");
      if (text != null && !(text instanceof String)) {
        throw Args.bad(where, "text must be a string, or null to remove the block");
      }
      if (text == null && e.block(name) == null) {
        throw Args.bad(where, "no block " + name + " to remove");
      }
      put(e.withBlock(name, (String) text));
    }

    private void link(JsonObject op, String where, boolean add) {
      Entity e = entity(op, where);
      if (e.isOwner()) {
        throw Args.bad(where, "the doc owner has no links");
      }
      Link l;
      if (op.containsKey("link")) {
        l = Records.link(op.getValue("link"), where);
      } else {
        l = Records.checkedLink(Args.string(op, "predicate", where), Args.string(op, "target", where), where);
      }
      List<Link> links = new ArrayList<>(e.links());
      if (add) {
        if (links.contains(l)) {
          return;
        }
        links.add(l);
      } else if (!links.remove(l)) {
        throw Args.bad(where, e.id() + " has no link " + l.predicate() + " " + l.target());
      }
      put(e.withLinks(links));
    }

    // ---------------------------------------------------------------- body

    private void setBody(String text) {
      Entity owner = doc.owner().withBlock(Block.RICH, text.isEmpty() ? null : text);
      doc = doc.withOwner(owner);
    }

    private String bodyText(JsonObject op, String where, boolean allowEmpty) {
      boolean hasMd = op.containsKey("md");
      boolean hasRich = op.containsKey("rich");
      if (hasMd == hasRich) {
        throw Args.bad(where, "give exactly one of md or rich");
      }
      String text;
      if (hasMd) {
        text = Args.string(op, "md", where);
      } else {
        text = RichCodec.toMd(op.getValue("rich"), diagnostics, where);
      }
      if (!allowEmpty && text.isBlank()) {
        throw Args.bad(where, "md is empty");
      }
      return text;
    }

    private void insert(JsonObject op, String where) {
      setBody(BodyEdits.insert(doc.body(), bodyText(op, where, false), op, where));
    }

    private void replace(JsonObject op, String where) {
      setBody(BodyEdits.replace(doc.body(), Args.string(op, "node", where), bodyText(op, where, true), where));
    }

    private void drop(JsonObject op, String where) {
      setBody(BodyEdits.drop(doc.body(), Args.string(op, "node", where), where));
    }

    private void move(JsonObject op, String where) {
      setBody(BodyEdits.move(doc.body(), Args.string(op, "node", where), op, where));
    }
  }

  /** Placements and mentions in the body that name no record. */
  static void checkBodyRefs(GramDocument doc, Context context, Diagnostics d) {
    Records.PatchRefs refs = context::documentExists;
    for (BodyNode n : Body.blocksWithoutIds(doc.body())) {
      if (n.type() == NodeType.ITEM && !refs.resolves(doc, n.ref())) {
        d.add(Diagnostics.UNRESOLVED_REF, "doc", "[[" + n.ref() + "]] places nothing: no record " + n.ref());
      }
      if (n.type() == NodeType.CODE || n.type() == NodeType.MATH) {
        continue;
      }
      Matcher m = MENTION.matcher(n.md());
      while (m.find()) {
        if (!refs.resolves(doc, m.group(1))) {
          d.add(Diagnostics.UNRESOLVED_REF, "doc", "mention @" + m.group(1) + " names no record");
        }
      }
    }
  }
}
