package dev.gram.format;

import java.util.List;

/**
 * The text of history entries and the hash chain over them.
 *
 * <p>An entry's text is every line from {@code @rev} through {@code state}, each ending in {@code
 * \n}. Its chain hash is {@code SHA-256(previousChain + "\n" + entryText)}, where previousChain is
 * the empty string for revision 0. Because the entry text includes the state hash, the chain
 * covers both what each revision did and what it resulted in.
 */
public final class HistoryCodec {
  private HistoryCodec() {}

  public static String entryText(Revision r) {
    StringBuilder sb = new StringBuilder(256);
    sb.append("@rev ").append(r.rev()).append('\n');
    sb.append("at ").append(Times.format(r.recordedAt())).append('\n');
    sb.append("actor ").append(r.actor()).append('\n');
    sb.append("by ").append(Values.encode(r.by())).append('\n');
    if (r.effectiveAt() != null) {
      sb.append("eff ").append(Values.encode(r.effectiveAt())).append('\n');
    }
    if (r.requestId() != null) {
      sb.append("req ").append(Values.encode(r.requestId())).append('\n');
    }
    if (r.digest() != null) {
      sb.append("digest ").append(r.digest()).append('\n');
    }
    for (Revision.Change c : r.changes()) {
      sb.append("chg ").append(c.kind().mark()).append(' ').append(c.id());
      if (c.kind() == Revision.Kind.SET) {
        for (String k : c.keys()) {
          sb.append(' ').append(k);
        }
      } else {
        sb.append(' ').append(c.type());
      }
      sb.append('\n');
    }
    for (Revision.Hunk h : r.delta()) {
      sb.append("diff ").append(h.start()).append(' ').append(h.deleteCount()).append('\n');
      for (String line : h.lines()) {
        sb.append('|').append(line).append('\n');
      }
    }
    sb.append("state ").append(r.stateHash()).append('\n');
    return sb.toString();
  }

  /** An entry as the file stores it: its text and its {@code chain} line. */
  public static String fileEntry(Revision r) {
    return entryText(r) + "chain " + r.chain() + "\n";
  }

  public static String chain(String previousChain, Revision r) {
    return Hashes.sha256((previousChain == null ? "" : previousChain) + "\n" + entryText(r));
  }

  /** Returns a copy of {@code r} with its chain computed from the previous entry. */
  public static Revision sealed(String previousChain, Revision r) {
    return r.withChain(chain(previousChain, r));
  }

  /** Checks links of the chain; returns the first bad revision, or -1 when all hold. */
  public static int firstBrokenLink(List<Revision> history) {
    String prev = null;
    for (int i = 0; i < history.size(); i++) {
      Revision r = history.get(i);
      if (r.rev() != i || !chain(prev, r).equals(r.chain())) {
        return i;
      }
      prev = r.chain();
    }
    return -1;
  }
}
