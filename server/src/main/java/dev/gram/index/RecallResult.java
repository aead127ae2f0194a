package dev.gram.index;

import java.util.List;

/**
 * What a recall found.
 *
 * @param hits the page of hits, best first
 * @param more true when further hits exist after this page
 * @param mode the mode actually used (auto resolved, semantic fallen back)
 * @param cosine true when each hit carries the cosine similarity of its text to the query
 * @param fallback why semantic matching was asked for and not used, or {@code null}
 * @param pendingFiles documents not yet indexed (or not yet checked against the vault)
 * @param partial true while the index does not yet reflect the whole vault
 * @param unembeddedChunks units not yet embedded, when semantic matching was used
 */
public record RecallResult(
    List<Hit> hits,
    boolean more,
    RecallRequest.Mode mode,
    boolean cosine,
    String fallback,
    int pendingFiles,
    boolean partial,
    int unembeddedChunks) {

  /**
   * One hit: a record, or a document (the owner) found by one of its body sections.
   *
   * @param context the heading path of the section, for document hits
   * @param cosine the cosine similarity to the query, or {@code null}
   * @param rev the indexed revision of the document
   * @param hash the indexed state hash (64 hex)
   */
  public record Hit(
      String path,
      String entityId,
      String type,
      String title,
      String status,
      String context,
      Float cosine,
      int rev,
      String hash) {}
}
