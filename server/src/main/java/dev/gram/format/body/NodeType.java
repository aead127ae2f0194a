package dev.gram.format.body;

/** The kinds of top-level blocks of a body, with the names used on the wire. */
public enum NodeType {
  HEADING("heading", "h"),
  PARAGRAPH("paragraph", "p"),
  LIST("list", "l"),
  TABLE("table", "t"),
  QUOTE("quote", "q"),
  CALLOUT("callout", "c"),
  CODE("code", "k"),
  MATH("math", "m"),
  DIVIDER("divider", "r"),
  IMAGE("image", "g"),
  ITEM("item", "i"),
  COLLECTION("collection", "s");

  private final String wire;
  private final String idPrefix;

  NodeType(String wire, String idPrefix) {
    this.wire = wire;
    this.idPrefix = idPrefix;
  }

  public String wire() {
    return wire;
  }

  String idPrefix() {
    return idPrefix;
  }

  public static NodeType ofWire(String s) {
    for (NodeType t : values()) {
      if (t.wire.equals(s)) {
        return t;
      }
    }
    return null;
  }
}
