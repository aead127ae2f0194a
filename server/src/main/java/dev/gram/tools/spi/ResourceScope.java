package dev.gram.tools.spi;

/**
 * What a subscription watches, resolved from the URI a client named: one document, or every
 * document under a folder (the vault root included), new ones too.
 *
 * @param uri the URI as the client will see it in notifications about the scope itself
 * @param path the document's path, or the folder's path with a trailing {@code /} ({@code ""} for
 *     the whole vault)
 * @param folder true when the scope is a folder
 */
public record ResourceScope(String uri, String path, boolean folder) {

  /** True when a change to the document at {@code documentPath} concerns this scope. */
  public boolean covers(String documentPath) {
    return folder ? documentPath.startsWith(path) : documentPath.equals(path);
  }
}
