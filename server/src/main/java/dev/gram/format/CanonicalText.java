package dev.gram.format;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The canonical text of one state ({@link GramWriter#write}), kept entity by entity so that the
 * next state's text, hash and delta cost what changed, not what the document holds.
 *
 * <p>The text is a sequence of blocks: the owner's (the header line, then the owner's lines) and
 * one per record (an empty line, then the record's lines). States share unchanged entities by
 * identity (every change to a {@link GramDocument} returns a new one that keeps the others), so
 * {@link #next} renders only entities it has not seen, and {@link #deltaTo} diffs the entity
 * sequences by identity, then lines only inside the entities that differ. The hash is still the
 * SHA-256 of the whole text, as the format defines it, but computed from the blocks' bytes
 * without building the text.
 *
 * <p>Immutable and safe to share.
 */
public final class CanonicalText {
  private final GramDocument document;
  private final Entity[] entities;
  private final String[][] blocks;
  private final byte[][] bytes;
  /** Line index of each block's first line in the whole text; one more entry for the end. */
  private final int[] lineStart;
  private volatile List<String> lines;
  private volatile String sha256;

  private CanonicalText(GramDocument document, Entity[] entities, String[][] blocks, byte[][] bytes, int[] lineStart) {
    this.document = document;
    this.entities = entities;
    this.blocks = blocks;
    this.bytes = bytes;
    this.lineStart = lineStart;
  }

  /** The text of {@code doc}, every entity rendered. */
  public static CanonicalText of(GramDocument doc) {
    return build(doc, null);
  }

  /** The text of {@code next}, rendering only the entities this text does not already hold. */
  public CanonicalText next(GramDocument next) {
    return build(next, this);
  }

  private static CanonicalText build(GramDocument doc, CanonicalText before) {
    List<Entity> now = doc.records();
    int n = now.size() + 1;
    Entity[] entities = new Entity[n];
    String[][] blocks = new String[n][];
    byte[][] bytes = new byte[n][];
    int[] lineStart = new int[n + 1];
    entities[0] = doc.owner();
    if (before != null && before.entities[0] == doc.owner()) {
      blocks[0] = before.blocks[0];
      bytes[0] = before.bytes[0];
    } else {
      blocks[0] = render(doc.owner(), true);
      bytes[0] = utf8(blocks[0]);
    }
    // Records before and after the span the change made are the same objects, at the same
    // distance from either end: their blocks are copied by place, as whole runs of the arrays (a
    // commit to a document of thousands of records changes one or two). Inside the span, a record
    // met in the earlier span (moved) is found by identity; the rest are rendered.
    ChangedSpan span = before == null
        ? new ChangedSpan(0, 0, now.size())
        : ChangedSpan.of(before.document.records(), now, Integer.MAX_VALUE);
    if (before != null) {
      int tail = now.size() - span.afterEnd();
      System.arraycopy(before.entities, 1, entities, 1, span.start());
      System.arraycopy(before.blocks, 1, blocks, 1, span.start());
      System.arraycopy(before.bytes, 1, bytes, 1, span.start());
      System.arraycopy(before.entities, span.beforeEnd() + 1, entities, span.afterEnd() + 1, tail);
      System.arraycopy(before.blocks, span.beforeEnd() + 1, blocks, span.afterEnd() + 1, tail);
      System.arraycopy(before.bytes, span.beforeEnd() + 1, bytes, span.afterEnd() + 1, tail);
    }
    Map<Entity, Integer> moved = null;
    for (int i = span.start(); i < span.afterEnd(); i++) {
      Entity e = now.get(i);
      entities[i + 1] = e;
      if (moved == null) {
        moved = before == null ? Map.of() : before.indexByIdentity(span.start(), span.beforeEnd());
      }
      Integer from = moved.get(e);
      if (from != null) {
        blocks[i + 1] = before.blocks[from + 1];
        bytes[i + 1] = before.bytes[from + 1];
      } else {
        blocks[i + 1] = render(e, false);
        bytes[i + 1] = utf8(blocks[i + 1]);
      }
    }
    // Line starts: the prefix's are the earlier text's (when the owner's block kept its size),
    // the suffix's are shifted by what the span added; only the span's are summed.
    int summedFrom = 0;
    if (before != null && blocks[0].length == before.blocks[0].length) {
      System.arraycopy(before.lineStart, 0, lineStart, 0, span.start() + 2);
      summedFrom = span.start() + 1;
    }
    int summedTo = before == null ? n : span.afterEnd() + 1;
    for (int i = summedFrom; i < summedTo; i++) {
      lineStart[i + 1] = lineStart[i] + blocks[i].length;
    }
    if (summedTo < n) {
      int shift = lineStart[summedTo] - before.lineStart[span.beforeEnd() + 1];
      for (int i = summedTo; i < n; i++) {
        lineStart[i + 1] = before.lineStart[i - span.afterEnd() + span.beforeEnd() + 1] + shift;
      }
    }
    return new CanonicalText(doc, entities, blocks, bytes, lineStart);
  }

  /**
   * The text after {@code delta}, hunks of lines against this text in order (a revision's, as
   * {@link #deltaTo} makes them), with its document: only the blocks the hunks touch are parsed
   * from the new lines, every other entity is kept (the same object, its block reused). Null when
   * the hunks do not fit this text or the changed lines do not parse as whole entities.
   *
   * <p>Why: a cluster's follower takes every revision of a document as its delta; parsing the
   * whole new text cost it what the document holds, not what changed. The result is the
   * revision's state only if its {@link #sha256} is the revision's state hash (the writer is
   * injective: one text, one document); a caller that finds another hash parses the whole text.
   */
  public CanonicalText afterDelta(List<Revision.Hunk> delta) {
    if (delta.isEmpty()) {
      return this;
    }
    int total = lineStart[blocks.length];
    int changedTo = 0;
    for (Revision.Hunk h : delta) {
      if (h.start() < changedTo || h.deleteCount() < 0 || h.start() + h.deleteCount() > total) {
        return null;
      }
      changedTo = h.start() + h.deleteCount();
    }
    // The lines before and after the change are whole blocks in both texts, so the new lines
    // between the same block boundaries are whole blocks too (the hash check says whether they are).
    // Lines inserted where a block starts may continue the block before it: that block is included.
    int firstBlock = blockAtOrAfter(Math.max(0, delta.get(0).start() - 1), false);
    int endBlock = Math.max(blockAtOrAfter(changedTo, true), firstBlock == 0 ? 1 : firstBlock);
    List<String> region = new ArrayList<>();
    int at = lineStart[firstBlock];
    for (Revision.Hunk h : delta) {
      copyLines(region, at, h.start());
      region.addAll(h.lines());
      at = h.start() + h.deleteCount();
    }
    copyLines(region, at, lineStart[endBlock]);
    List<String> mini = new ArrayList<>();
    if (firstBlock > 0) {
      mini.addAll(Arrays.asList(blocks[0]));
    }
    mini.addAll(region);
    if (!(GramParser.parse(LineDiff.join(mini)) instanceof GramParser.Success ok) || ok.file().hasHistory()) {
      return null;
    }
    List<Entity> parsed = ok.file().state().records();
    try {
      GramDocument doc = firstBlock == 0 ? null : spliced(firstBlock - 1, endBlock - 1, parsed);
      if (doc == null) {
        List<Entity> old = document.records();
        List<Entity> records = new ArrayList<>(old.size() + parsed.size());
        records.addAll(old.subList(0, Math.max(0, firstBlock - 1)));
        records.addAll(parsed);
        records.addAll(old.subList(endBlock - 1, old.size()));
        Entity owner = firstBlock == 0 ? ok.file().state().owner() : document.owner();
        doc = new GramDocument(owner, records);
      }
      return next(doc);
    } catch (IllegalArgumentException e) {
      return null; // duplicate ids, text that is not Unicode: not the revision's state
    }
  }

  /**
   * This document with {@code parsed} in place of its records {@code from} to {@code to}
   * (exclusive), edited record by record so that its id index is kept, when the run keeps its ids
   * in order and adds only at the document's end (a field set, a record appended: most revisions);
   * null otherwise. A parsed record equal to the one it replaces is not replaced, so its block is
   * reused.
   */
  private GramDocument spliced(int from, int to, List<Entity> parsed) {
    List<Entity> old = document.records();
    int kept = to - from;
    if (parsed.size() < kept || (parsed.size() > kept && to != old.size())) {
      return null;
    }
    GramDocument doc = document;
    for (int k = 0; k < parsed.size(); k++) {
      Entity e = parsed.get(k);
      if (k < kept) {
        Entity was = old.get(from + k);
        if (!e.id().equals(was.id())) {
          return null;
        }
        if (!e.equals(was)) {
          doc = doc.withRecord(e);
        }
      } else if (doc.contains(e.id())) {
        return null;
      } else {
        doc = doc.withRecord(e);
      }
    }
    return doc;
  }

  /**
   * The block a line starts or lies in; with {@code exclusiveEnd}, a line inside a block gives the
   * block after it (an exclusive end), and the end of the text gives the number of blocks.
   */
  private int blockAtOrAfter(int line, boolean exclusiveEnd) {
    if (line >= lineStart[blocks.length]) {
      return blocks.length;
    }
    int i = Arrays.binarySearch(lineStart, 0, blocks.length, line);
    if (i >= 0) {
      return i;
    }
    int within = -i - 2;
    return exclusiveEnd ? within + 1 : within;
  }

  private void copyLines(List<String> out, int from, int to) {
    int b = from < to ? blockAtOrAfter(from, false) : 0;
    for (int line = from; line < to; line++) {
      while (line >= lineStart[b + 1]) {
        b++;
      }
      out.add(blocks[b][line - lineStart[b]]);
    }
  }

  /** Record index of each of this text's records from {@code from} to {@code to} (exclusive), by identity. */
  private Map<Entity, Integer> indexByIdentity(int from, int to) {
    Map<Entity, Integer> m = new IdentityHashMap<>(Math.max(4, (to - from) * 2));
    for (int i = from; i < to; i++) {
      m.put(entities[i + 1], i);
    }
    return m;
  }

  private static String[] render(Entity e, boolean owner) {
    StringBuilder sb = new StringBuilder(128);
    sb.append(owner ? GramWriter.HEADER : "").append('\n');
    GramWriter.writeEntity(sb, e);
    requireUnicode(sb);
    List<String> l = LineDiff.lines(sb.toString());
    return l.toArray(new String[0]);
  }

  /**
   * Refuses text holding half of a surrogate pair (which JSON's {@code \\u} escapes can express):
   * it has no UTF-8 form and would not read back as written.
   */
  private static void requireUnicode(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new NotUnicodeException();
      }
    }
  }

  /** A value held an unpaired UTF-16 surrogate. */
  public static final class NotUnicodeException extends IllegalArgumentException {
    NotUnicodeException() {
      super("A value holds an unpaired UTF-16 surrogate, which is not Unicode text");
    }
  }

  private static byte[] utf8(String[] lines) {
    StringBuilder sb = new StringBuilder();
    for (String l : lines) {
      sb.append(l).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  public GramDocument document() {
    return document;
  }

  /** The lines of the whole text. */
  public List<String> lines() {
    List<String> l = lines;
    if (l == null) {
      String[] all = new String[lineStart[blocks.length]];
      for (int i = 0; i < blocks.length; i++) {
        System.arraycopy(blocks[i], 0, all, lineStart[i], blocks[i].length);
      }
      l = List.of(all);
      lines = l;
    }
    return l;
  }

  /** The SHA-256 (64 hex) of the whole text: the state hash. */
  public String sha256() {
    String h = sha256;
    if (h == null) {
      MessageDigest md = Hashes.digest();
      for (byte[] b : bytes) {
        md.update(b);
      }
      h = HexFormat.of().formatHex(md.digest());
      sha256 = h;
    }
    return h;
  }

  /** The whole text as UTF-8. */
  public byte[] utf8() {
    int size = 0;
    for (byte[] b : bytes) {
      size += b.length;
    }
    byte[] out = new byte[size];
    int at = 0;
    for (byte[] b : bytes) {
      System.arraycopy(b, 0, out, at, b.length);
      at += b.length;
    }
    return out;
  }

  /**
   * The hunks that turn this text into {@code next}'s: the entity sequences are diffed by
   * identity, and lines only within each run of entities that differ.
   */
  public List<Revision.Hunk> deltaTo(CanonicalText next) {
    Entity[] a = entities;
    Entity[] b = next.entities;
    int prefix = 0;
    int max = Math.min(a.length, b.length);
    while (prefix < max && a[prefix] == b[prefix]) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < max - prefix && a[a.length - 1 - suffix] == b[b.length - 1 - suffix]) {
      suffix++;
    }
    int aEnd = a.length - suffix;
    int bEnd = b.length - suffix;
    if (prefix == aEnd && prefix == bEnd) {
      return List.of();
    }
    // Symbols: the same entity object is the same symbol on both sides.
    Map<Entity, Integer> ids = new IdentityHashMap<>();
    int[] x = new int[aEnd - prefix];
    for (int i = prefix; i < aEnd; i++) {
      x[i - prefix] = ids.computeIfAbsent(a[i], k -> ids.size());
    }
    int[] y = new int[bEnd - prefix];
    for (int i = prefix; i < bEnd; i++) {
      y[i - prefix] = ids.computeIfAbsent(b[i], k -> ids.size());
    }
    List<int[]> ranges = LineDiff.editRanges(x, y);
    if (ranges == null) {
      ranges = List.<int[]>of(new int[] {0, x.length, 0, y.length});
    }
    List<Revision.Hunk> out = new ArrayList<>();
    for (int[] r : ranges) {
      int aFrom = prefix + r[0];
      int bFrom = prefix + r[2];
      List<String> before = linesOf(aFrom, aFrom + r[1]);
      List<String> after = next.linesOf(bFrom, bFrom + r[3]);
      int shift = lineStart[aFrom];
      for (Revision.Hunk h : LineDiff.diff(before, after)) {
        out.add(new Revision.Hunk(shift + h.start(), h.deleteCount(), h.lines()));
      }
    }
    return out;
  }

  private List<String> linesOf(int fromBlock, int toBlock) {
    List<String> out = new ArrayList<>(lineStart[toBlock] - lineStart[fromBlock]);
    for (int i = fromBlock; i < toBlock; i++) {
      out.addAll(Arrays.asList(blocks[i]));
    }
    return out;
  }
}
