package dev.gram.format;

import java.util.List;

/**
 * A whole {@code .gram} file: the current state at the top and, when the file has one, its
 * history. A file without a history is revision 0 of a document that was written by hand or
 * exported.
 *
 * @param state the current state as written at the top of the file
 * @param history the history entries in revision order (empty when the file has none)
 * @param headRev the revision named by the {@code @history} line, or -1
 * @param headChain the chain hash named by the {@code @history} line, or {@code null}
 */
public record GramFile(GramDocument state, List<Revision> history, int headRev, String headChain) {
  public GramFile {
    history = List.copyOf(history);
  }

  public static GramFile withoutHistory(GramDocument state) {
    return new GramFile(state, List.of(), -1, null);
  }

  public boolean hasHistory() {
    return !history.isEmpty();
  }

  /** The whole file as written to disk: the canonical state, then the history. */
  public String write() {
    StringBuilder sb = new StringBuilder(GramWriter.write(state));
    if (!history.isEmpty()) {
      sb.append('\n');
      Revision last = history.get(history.size() - 1);
      sb.append("@history ").append(last.rev()).append(' ').append(last.chain()).append('\n');
      for (Revision r : history) {
        sb.append(HistoryCodec.fileEntry(r));
      }
    }
    return sb.toString();
  }
}
