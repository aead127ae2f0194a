package dev.gram.tools.support;

import dev.gram.format.Entity;
import dev.gram.format.EntityType;
import dev.gram.format.GramDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The records a collection block ({@code [[*]]{type=… status=… tag=… view=…}}) selects from its
 * document, and how it is shown. Each filter may list several words (comma- or space-separated);
 * a type may be written as its name or code. Without a type filter REL edges are not selected.
 */
public final class Selections {
  private Selections() {}

  public static List<Entity> select(GramDocument doc, Map<String, String> attrs) {
    List<String> typeWords = RecordFacts.words(attrs.get("type"));
    List<EntityType> types = new ArrayList<>();
    for (String w : typeWords) {
      // A type this server does not know selects nothing; the body keeps what was written.
      EntityType t = RecordFacts.type(w);
      if (t != null) {
        types.add(t);
      }
    }
    List<String> statuses = RecordFacts.words(attrs.get("status"));
    List<String> tags = RecordFacts.words(attrs.get("tag"));
    List<Entity> out = new ArrayList<>();
    for (Entity r : doc.records()) {
      if (typeWords.isEmpty() ? r.type() == EntityType.RELATION : !types.contains(r.type())) {
        continue;
      }
      if (!statuses.isEmpty() && !RecordFacts.statusIn(r, statuses)) {
        continue;
      }
      if (!tags.isEmpty() && !RecordFacts.hasAnyTag(r, tags)) {
        continue;
      }
      out.add(r);
    }
    return out;
  }

  /**
   * {@code list} or {@code table}: the view when it is one of them; otherwise a list when only
   * tasks are selected, a table for any other or an empty selection.
   */
  public static String shownAs(Map<String, String> attrs, List<Entity> selected) {
    String view = attrs.getOrDefault("view", "").strip().toLowerCase(java.util.Locale.ROOT);
    if (view.equals("list") || view.equals("table")) {
      return view;
    }
    if (selected.isEmpty()) {
      return "table";
    }
    for (Entity e : selected) {
      if (e.type() != EntityType.TASK) {
        return "table";
      }
    }
    return "list";
  }
}
