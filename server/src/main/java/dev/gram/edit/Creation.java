package dev.gram.edit;

import dev.gram.format.Block;
import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.Field;
import dev.gram.format.GramDocument;
import dev.gram.format.Syntax;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Revision 0 of a new document from {@code gram_create}'s {@code title} and {@code content}:
 * content is the body as md text, or {@code {text | rich, records, fields, blocks}}.
 */
public final class Creation {
  private Creation() {}

  /** The new state, the records it created, and diagnostics. */
  public record Result(GramDocument state, List<String> created, JsonArray diagnostics) {}

  /** A new document id: {@code d_} and 32 random hex digits. */
  public static String newDocumentId() {
    byte[] b = new byte[16];
    ThreadLocalRandom.current().nextBytes(b);
    return "d_" + HexFormat.of().formatHex(b);
  }

  public static Result build(String documentId, String title, Object content, PatchEngine.Context context) {
    String where = "content";
    if (title == null || title.isBlank()) {
      throw Args.bad("title", "a document needs a title");
    }
    Diagnostics diagnostics = new Diagnostics();
    String body;
    List<Field> ownerFields = new ArrayList<>();
    ownerFields.add(new Field("t", List.of(title)));
    List<Block> ownerBlocks = new ArrayList<>();
    JsonArray records = new JsonArray();
    if (content instanceof String s) {
      body = s;
    } else if (content instanceof JsonObject o) {
      Args.allowOnly(o, Set.of("text", "rich", "records", "fields", "blocks"), where);
      if (o.containsKey("text") && o.containsKey("rich")) {
        throw Args.bad(where, "give text or rich, not both");
      }
      if (o.containsKey("rich")) {
        body = RichCodec.toMd(o.getValue("rich"), diagnostics, where + ".rich");
      } else {
        Object text = o.getValue("text");
        if (text != null && !(text instanceof String)) {
          throw Args.bad(where, "text must be md text");
        }
        body = text == null ? "" : (String) text;
      }
      for (Field f : Records.fields(o.getValue("fields"), where + ".fields")) {
        if (f.key().equals("t")) {
          throw Args.bad(where + ".fields", "the title is given by title; leave t out of fields");
        }
        ownerFields.add(f);
      }
      ownerBlocks.addAll(Records.blocks(o.getValue("blocks"), where + ".blocks", true));
      Object r = o.getValue("records");
      if (r instanceof JsonArray ra) {
        records = ra;
      } else if (r != null) {
        throw Args.bad(where, "records must be a list");
      }
    } else {
      throw Args.bad(where, "content is md text or {text | rich, records, fields, blocks}");
    }
    if (!body.isEmpty()) {
      ownerBlocks.add(0, new Block(Block.RICH, body));
    }
    if (!Syntax.isId(documentId)) {
      throw Args.bad("path", "invalid document id " + documentId);
    }
    Entity owner = new Entity(EntityType.DOCUMENT, documentId, ownerFields, List.of(), ownerBlocks);
    Records.checkValues(owner, diagnostics);
    List<Entity> list = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    ids.add(documentId);
    List<String> created = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      Object item = records.getValue(i);
      String rw = where + ".records[" + i + "]";
      if (!(item instanceof JsonObject ro)) {
        throw Args.bad(rw, "a record is {type, id?, fields, links?, blocks?}");
      }
      Entity e = Records.fromJson(ro, ids::contains, rw, diagnostics);
      ids.add(e.id());
      list.add(e);
      created.add(e.id());
    }
    GramDocument doc = new GramDocument(owner, list);
    Records.checkRefs(doc, context::documentExists, diagnostics);
    PatchOps.checkBodyRefs(doc, context, diagnostics);
    return new Result(doc, created, diagnostics.toJson());
  }
}
