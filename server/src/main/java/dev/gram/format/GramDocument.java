package dev.gram.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The state of one document at one revision: the owner and its records in source order. Ids are
 * unique across the owner and the records. Immutable; changes return a new document that shares
 * the unchanged entities.
 */
public final class GramDocument {
  private final Entity owner;
  private final List<Entity> records;
  /** Id → place of the records, but for the ones appended since it was built ({@link #appended}). */
  private final Map<String, Integer> indexById;
  /**
   * Id → place of the records appended since {@link #indexById} was built, at most {@link
   * #APPENDED_MAX}: an append copies this small map, not the whole index.
   */
  private final Map<String, Integer> appended;

  /** Appends kept apart before the index is built again with them: its copy is then shared by as many. */
  private static final int APPENDED_MAX = 64;

  public GramDocument(Entity owner, List<Entity> records) {
    this.owner = Objects.requireNonNull(owner, "owner");
    if (!owner.isOwner()) {
      throw new IllegalArgumentException("the owner must be of type document");
    }
    this.records = List.copyOf(records);
    Map<String, Integer> index = new HashMap<>(records.size() * 2);
    for (int i = 0; i < this.records.size(); i++) {
      Entity r = this.records.get(i);
      if (r.isOwner()) {
        throw new IllegalArgumentException("a record cannot be of type document: " + r.id());
      }
      if (r.id().equals(owner.id()) || index.put(r.id(), i) != null) {
        throw new IllegalArgumentException("duplicate id " + r.id());
      }
    }
    this.indexById = Collections.unmodifiableMap(index);
    this.appended = Map.of();
  }

  /**
   * A document derived from a checked one: {@code records} is already an immutable copy and the
   * two maps its index, checked or carried over from a checked document. A commit to a document
   * of thousands of records changes one or two of them; checking and indexing them all again was
   * a sixth of the commit's CPU, and copying the index for an appended record a fifth.
   */
  private GramDocument(Entity owner, List<Entity> records, Map<String, Integer> indexById,
      Map<String, Integer> appended) {
    this.owner = owner;
    this.records = records;
    this.indexById = indexById;
    this.appended = appended;
  }

  /** The place of the record with that id, or null. */
  private Integer place(String id) {
    Integer i = appended.get(id);
    return i != null ? i : indexById.get(id);
  }

  public Entity owner() {
    return owner;
  }

  public String id() {
    return owner.id();
  }

  public String title() {
    String t = owner.first("t");
    return t == null ? "" : t;
  }

  /** The records in source order. */
  public List<Entity> records() {
    return records;
  }

  /** The body (the owner's {@code rich} block), or the empty string. */
  public String body() {
    Block b = owner.block(Block.RICH);
    return b == null ? "" : b.text();
  }

  /** The entity with that id (the owner included), or {@code null}. */
  public Entity entity(String id) {
    if (owner.id().equals(id)) {
      return owner;
    }
    Integer i = place(id);
    return i == null ? null : records.get(i);
  }

  /** The record with that id, or {@code null} (the owner is not a record). */
  public Entity record(String id) {
    Integer i = place(id);
    return i == null ? null : records.get(i);
  }

  public boolean contains(String id) {
    return owner.id().equals(id) || place(id) != null;
  }

  public GramDocument withOwner(Entity newOwner) {
    if (newOwner.isOwner() && newOwner.id().equals(owner.id())) {
      // Same id: the records' ids and places are as they were.
      return new GramDocument(newOwner, records, indexById, appended);
    }
    return new GramDocument(newOwner, records);
  }

  /** Replaces the record of the same id in place, or appends a new one. */
  public GramDocument withRecord(Entity record) {
    Integer i = place(record.id());
    if (record.isOwner() || (i == null && record.id().equals(owner.id()))) {
      // Refused with the constructor's own message.
      List<Entity> out = new ArrayList<>(records);
      out.add(record);
      return new GramDocument(owner, out);
    }
    Entity[] out = records.toArray(new Entity[records.size() + (i == null ? 1 : 0)]);
    if (i != null) {
      out[i] = record;
      return new GramDocument(owner, List.of(out), indexById, appended);
    }
    out[records.size()] = record;
    Map<String, Integer> more = new HashMap<>(appended);
    more.put(record.id(), records.size());
    if (more.size() <= APPENDED_MAX) {
      return new GramDocument(owner, List.of(out), indexById, Collections.unmodifiableMap(more));
    }
    Map<String, Integer> index = new HashMap<>(indexById);
    index.putAll(more);
    return new GramDocument(owner, List.of(out), Collections.unmodifiableMap(index), Map.of());
  }

  public GramDocument withoutRecord(String id) {
    Integer i = place(id);
    if (i == null) {
      return this;
    }
    List<Entity> out = new ArrayList<>(records);
    out.remove((int) i);
    return new GramDocument(owner, out);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GramDocument d && owner.equals(d.owner) && records.equals(d.records);
  }

  @Override
  public int hashCode() {
    return Objects.hash(owner, records);
  }

  @Override
  public String toString() {
    return GramWriter.write(this);
  }
}
