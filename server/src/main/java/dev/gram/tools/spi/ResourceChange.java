package dev.gram.tools.spi;

/**
 * A document's new state, as a subscriber is told of it: enough to act on at once (read, patch
 * against {@code rev}/{@code hash}, or catch up with {@code gram_changes} since a revision).
 * Notifications are hints; the document's history is the record.
 *
 * @param uri the document's resource URI
 * @param path the document's path
 * @param rev the new revision, or -1 when the document was removed
 * @param hash the 16-hex hash agents pass as {@code expected_hash}, or null when removed
 * @param by who wrote the revision, or null when unknown (removed, or edited outside the server)
 * @param summary the revision's {@code +added ~changed -removed} summary, or null
 * @param kind what happened to the document
 */
public record ResourceChange(
    String uri, String path, int rev, String hash, String by, String summary, Kind kind) {

  /** Whether the document is new, changed, or gone. */
  public enum Kind {
    CREATED,
    UPDATED,
    REMOVED;

    /** True when the list of resources changed, not only a document in it. */
    public boolean changesList() {
      return this != UPDATED;
    }
  }
}
