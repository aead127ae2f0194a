package dev.gram.format;

import java.util.List;

/**
 * Where a document's records changed between two of its states, found by identity. A commit keeps
 * every record it did not touch as the same immutable object, so the records before its first
 * change and after its last are the same objects, at the same distance from either end, in both
 * states: comparing references from both ends finds the span between, without reading a record.
 * A commit that adds a record at the end, or edits or removes one, changes a span of one record
 * however long the document is: what a commit changed ({@link StateDiff}) and what the search
 * index must write again are found in that span alone.
 *
 * @param start the first index that differs (the same in both lists)
 * @param beforeEnd the end (exclusive) of the changed span in the earlier list
 * @param afterEnd the end (exclusive) of the changed span in the later list
 */
public record ChangedSpan(int start, int beforeEnd, int afterEnd) {

  /** The span between {@code before} and {@code after}, or null when it holds more than {@code max} records. */
  public static ChangedSpan of(List<Entity> before, List<Entity> after, int max) {
    int n = before.size();
    int m = after.size();
    int p = 0;
    while (p < n && p < m && before.get(p) == after.get(p)) {
      p++;
    }
    int q = 0;
    while (q < n - p && q < m - p && before.get(n - 1 - q) == after.get(m - 1 - q)) {
      q++;
    }
    ChangedSpan span = new ChangedSpan(p, n - q, m - q);
    return span.records() > max ? null : span;
  }

  /** Records in the span, counted in both lists. */
  public int records() {
    return (beforeEnd - start) + (afterEnd - start);
  }
}
