package dev.gram.web;

import dev.gram.format.EntityType;
import java.util.EnumMap;
import java.util.Map;

/**
 * The emoji each record type is shown with. Decoration only: the page always writes the type's
 * name beside it for screen readers, and hides the emoji from them.
 */
final class Kinds {
  private static final Map<EntityType, String> EMOJI = new EnumMap<>(EntityType.class);

  static {
    put(EntityType.DOCUMENT, "📄");
    put(EntityType.TASK, "☑️");
    put(EntityType.DECISION, "⚖️");
    put(EntityType.EVIDENCE, "🔎");
    put(EntityType.KNOWLEDGE, "📘");
    put(EntityType.CONTEXT, "🧭");
    put(EntityType.HISTORY, "📜");
    put(EntityType.GOAL, "🎯");
    put(EntityType.BLOCKER, "⛔");
    put(EntityType.REQUIREMENT, "📋");
    put(EntityType.RISK, "⚠️");
    put(EntityType.ASSUMPTION, "💭");
    put(EntityType.METRIC, "📈");
    put(EntityType.EVENT, "📅");
    put(EntityType.ARTIFACT, "📦");
    put(EntityType.PERSON, "👤");
    put(EntityType.AGENT, "🤖");
    put(EntityType.PROJECT, "🗂️");
    put(EntityType.SYSTEM, "🖥️");
    put(EntityType.SERVICE, "🛎️");
    put(EntityType.COMPONENT, "🧩");
    put(EntityType.SOURCE, "📚");
    put(EntityType.RUN, "▶️");
    put(EntityType.ASSET, "🖼️");
    put(EntityType.RELATION, "🔗");
  }

  private Kinds() {}

  private static void put(EntityType t, String emoji) {
    EMOJI.put(t, emoji);
  }

  /** The emoji, hidden from assistive technology, then the type's name for it alone. */
  static StringBuilder badge(StringBuilder out, EntityType type) {
    out.append("<span class=\"emoji\" aria-hidden=\"true\">").append(EMOJI.getOrDefault(type, "•"))
        .append("</span><span class=\"sr-only\">").append(type.typeName()).append(": </span>");
    return out;
  }

  static String emoji(EntityType type) {
    return EMOJI.getOrDefault(type, "•");
  }
}
