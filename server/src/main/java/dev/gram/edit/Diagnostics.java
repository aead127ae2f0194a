package dev.gram.edit;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Things a write stored that cannot be shown as intended. They never stop the write: the revision
 * is committed and the answer lists them.
 *
 * <ul>
 *   <li>{@code unresolved_ref}: a link, placement or mention names an id that does not exist;
 *   <li>{@code unsupported_node}: a gram-rich/1 node of a type this server does not know;
 *   <li>{@code unparsed_value}: a value that its key expects in a form (a date, a number, a
 *       colour, a priority) it is not in.
 * </ul>
 */
public final class Diagnostics {
  public static final String UNRESOLVED_REF = "unresolved_ref";
  public static final String UNSUPPORTED_NODE = "unsupported_node";
  public static final String UNPARSED_VALUE = "unparsed_value";

  private final JsonArray items = new JsonArray();

  public void add(String code, String entity, String message) {
    JsonObject d = new JsonObject().put("code", code);
    if (entity != null) {
      d.put("entity", entity);
    }
    d.put("message", message);
    if (!items.contains(d)) {
      items.add(d);
    }
  }

  public JsonArray toJson() {
    return items.copy();
  }

  public boolean isEmpty() {
    return items.isEmpty();
  }
}
