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
  private final Map<String, Integer> indexById;

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
  }

  /**
   * A document derived from a checked one: {@code records} is already an immutable copy and {@code
   * indexById} its index, both checked or carried over from a checked document. A commit to a
   * document of thousands of records changes one or two of them; checking and indexing them all
   * again was a sixth of the commit's CPU.
   */
  private GramDocument(Entity owner, List<Entity> records, Map<String, Integer> indexById) {
    this.owner = owner;
    this.records = records;
    this.indexById = indexById;
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
    Integer i = indexById.get(id);
    return i == null ? null : records.get(i);
  }

  /** The record with that id, or {@code null} (the owner is not a record). */
  public Entity record(String id) {
    Integer i = indexById.get(id);
    return i == null ? null : records.get(i);
  }

  public boolean contains(String id) {
    return owner.id().equals(id) || indexById.containsKey(id);
  }

  public GramDocument withOwner(Entity newOwner) {
    if (newOwner.isOwner() && newOwner.id().equals(owner.id())) {
      // Same id: the records' ids and places are as they were.
      return new GramDocument(newOwner, records, indexById);
    }
    return new GramDocument(newOwner, records);
  }

  /** Replaces the record of the same id in place, or appends a new one. */
  public GramDocument withRecord(Entity record) {
    Integer i = indexById.get(record.id());
    if (record.isOwner() || (i == null && record.id().equals(owner.id()))) {
      // Refused with the constructor's own message.
      List<Entity> out = new ArrayList<>(records);
      out.add(record);
      return new GramDocument(owner, out);
    }
    Entity[] out = records.toArray(new Entity[records.size() + (i == null ? 1 : 0)]);
    Map<String, Integer> index = indexById;
    if (i == null) {
      out[records.size()] = record;
      Map<String, Integer> grown = new HashMap<>(indexById);
      grown.put(record.id(), records.size());
      index = Collections.unmodifiableMap(grown);
    } else {
      out[i] = record;
    }
    return new GramDocument(owner, List.of(out), index);
  }

  public GramDocument withoutRecord(String id) {
    Integer i = indexById.get(id);
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
