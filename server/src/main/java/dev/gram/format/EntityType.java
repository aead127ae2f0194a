package dev.gram.format;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What an entity of a document is: the owner ({@link #DOCUMENT}), one of the 23 record types of
 * the profile, or a {@link #RELATION} (an REL edge, a record of its own that links two entities).
 *
 * <p>In a file, the owner line is {@code doc <id>} and a record line is {@code <CODE> <id>} where
 * CODE is the short code. The lowercase type name is accepted as well where it cannot be read as a
 * field (some names, such as {@code source}, are also field keys): after a blank line. Writers
 * always use the code.
 */
public enum EntityType {
  DOCUMENT("document", "doc"),
  TASK("task", "TSK"),
  DECISION("decision", "DEC"),
  EVIDENCE("evidence", "EVD"),
  KNOWLEDGE("knowledge", "KNW"),
  CONTEXT("context", "CTX"),
  HISTORY("history", "HST"),
  GOAL("goal", "GOL"),
  BLOCKER("blocker", "BLK"),
  REQUIREMENT("requirement", "REQ"),
  RISK("risk", "RSK"),
  ASSUMPTION("assumption", "ASM"),
  METRIC("metric", "MET"),
  EVENT("event", "EVT"),
  ARTIFACT("artifact", "ART"),
  PERSON("person", "PER"),
  AGENT("agent", "AGT"),
  PROJECT("project", "PRJ"),
  SYSTEM("system", "SYS"),
  SERVICE("service", "SVC"),
  COMPONENT("component", "CMP"),
  SOURCE("source", "SRC"),
  RUN("run", "RUN"),
  ASSET("asset", "AST"),
  RELATION("relation", "REL");

  private static final Map<String, EntityType> BY_WORD = new HashMap<>();
  private static final Map<String, EntityType> BY_CODE = new HashMap<>();

  static {
    for (EntityType t : values()) {
      if (t != DOCUMENT) {
        BY_WORD.put(t.typeName, t);
        BY_WORD.put(t.code, t);
        BY_CODE.put(t.code, t);
      }
    }
  }

  private final String typeName;
  private final String code;

  EntityType(String typeName, String code) {
    this.typeName = typeName;
    this.code = code;
  }

  /** The lowercase name used in tool answers, e.g. {@code evidence}. */
  public String typeName() {
    return typeName;
  }

  /** The short code written in files, e.g. {@code EVD}. */
  public String code() {
    return code;
  }

  /** True for the types an agent names in {@code add} (everything but the owner). */
  public boolean isRecord() {
    return this != DOCUMENT;
  }

  /**
   * The record type written as {@code word} in a file or a request: the code or the lowercase
   * name; {@code null} when it is neither (the owner's {@code doc} is not a record type).
   */
  public static EntityType ofRecordWord(String word) {
    return BY_WORD.get(word);
  }

  /** The record type whose short code is {@code code}, or {@code null}. */
  public static EntityType ofCode(String code) {
    return BY_CODE.get(code);
  }

  /** The record types of the profile, in its order (the relation is not one of them). */
  public static List<EntityType> profileTypes() {
    return List.of(values()).subList(1, values().length - 1);
  }

  /** Work types: the ones that appear as open records in a brief. */
  public boolean isWork() {
    return switch (this) {
      case TASK, DECISION, GOAL, BLOCKER, REQUIREMENT, RISK, ASSUMPTION, RUN -> true;
      default -> false;
    };
  }
}
