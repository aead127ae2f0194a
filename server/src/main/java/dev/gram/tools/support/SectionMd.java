package dev.gram.tools.support;

import dev.gram.format.Entity;
import dev.gram.format.body.BodyNode;
import dev.gram.format.body.NodeType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Body blocks as the Markdown gram_read answers: text blocks exactly as written, a placed record
 * as its {@link RecordLines record line}, a collection as a heading per raw type with one bullet
 * per selected record (each bullet carries the record's id), an image as its Markdown image
 * reference. Blocks are separated by a blank line.
 */
public final class SectionMd {
  private SectionMd() {}

  /** The Markdown of consecutive blocks; {@code level} is the level of the heading they sit under. */
  public static String render(List<BodyNode> nodes, int level, BodyRefs refs) {
    StringBuilder sb = new StringBuilder();
    int current = level;
    for (BodyNode n : nodes) {
      if (n.type() == NodeType.HEADING) {
        current = n.level();
      }
      if (sb.length() > 0) {
        sb.append("\n\n");
      }
      sb.append(block(n, current, refs));
    }
    return sb.toString();
  }

  public static String block(BodyNode n, int level, BodyRefs refs) {
    switch (n.type()) {
      case ITEM:
        BodyRefs.Ref r = refs.resolve(n.ref());
        return r == null ? RecordLines.unresolved(n.ref()) : RecordLines.line(r, refs);
      case COLLECTION:
        return collection(n, level, refs);
      default:
        return n.md();
    }
  }

  private static String collection(BodyNode n, int level, BodyRefs refs) {
    List<Entity> selected = Selections.select(refs.document(), n.attrs());
    if (selected.isEmpty()) {
      return "_(no records match " + n.md().strip() + ")_";
    }
    Map<String, List<Entity>> byType = new LinkedHashMap<>();
    for (Entity e : selected) {
      byType.computeIfAbsent(e.type().typeName(), k -> new ArrayList<>()).add(e);
    }
    String hashes = "#".repeat(Math.min(6, Math.max(1, level + 1)));
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, List<Entity>> group : byType.entrySet()) {
      StringBuilder sb = new StringBuilder(hashes).append(' ').append(group.getKey());
      for (Entity e : group.getValue()) {
        BodyRefs.Ref r = new BodyRefs.Ref(e.id(), e, refs.document());
        sb.append("\n- ").append(RecordLines.head(r, refs, false));
      }
      parts.add(sb.toString());
    }
    return String.join("\n\n", parts);
  }
}
