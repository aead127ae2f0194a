package dev.gram.tools.resources;

import dev.gram.access.Identity;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.format.GramWriter;
import dev.gram.gate.Gate;
import dev.gram.store.DocSnapshot;
import dev.gram.store.DocumentReader;
import dev.gram.store.VaultPath;
import dev.gram.tools.spi.ChangeFeed;
import dev.gram.tools.spi.ResourceScope;
import dev.gram.tools.spi.Resources;
import dev.gram.tools.support.Cursors;
import dev.gram.tools.support.BodyRefs;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The vault's documents as {@link Resources}: {@code gram://<path>} for every document, mounts as
 * {@code gram://@mounts/<id>/…}. Listing pages in path order with a cursor that names the last
 * path shown, so a page is stable while documents come and go. Reading answers from the current
 * snapshot: no mailbox, no waiting for writers.
 */
public final class DocumentResources implements Resources {
  /** Resources per {@code resources/list} page. */
  static final int PAGE = 100;
  static final String MARKDOWN = "text/markdown";
  static final String GRAM = "text/x-gram";
  static final String INVALID_CURSOR = "Invalid resources cursor";
  /** In a not-found error's details, so the protocol can answer MCP's resource-not-found code. */
  public static final String NOT_FOUND = "not_found";

  private final DocumentReader source;
  private final ChangeFeed feed;
  private final Identity caller;

  public DocumentResources(DocumentReader source, ChangeFeed feed) {
    this(source, feed, Identity.local());
  }

  private DocumentResources(DocumentReader source, ChangeFeed feed, Identity caller) {
    this.source = source;
    this.feed = feed;
    this.caller = caller;
  }

  /** The documents through {@code caller}'s gate: list, read and scopes see only its approvals. */
  @Override
  public Resources as(Identity who) {
    return Gate.unrestricted(who) ? this : new DocumentResources(Gate.reader(source, who), feed, who);
  }

  @Override
  public Future<ResourcePage> list(String cursor) {
    try {
      String after =
          cursor == null
              ? null
              : Cursors.stringField(
                  Cursors.decode("resources", cursor, INVALID_CURSOR), "after", INVALID_CURSOR);
      List<ResourceEntry> page = new ArrayList<>();
      String last = null;
      boolean more = false;
      for (DocSnapshot s : source.documents()) {
        if (after != null && s.path().compareTo(after) <= 0) {
          continue;
        }
        if (page.size() == PAGE) {
          more = true;
          break;
        }
        page.add(entry(s));
        last = s.path();
      }
      String next =
          more ? Cursors.encode("resources", new JsonObject().put("after", last)) : null;
      return Future.succeededFuture(new ResourcePage(page, next));
    } catch (GramException e) {
      return Future.failedFuture(e);
    }
  }

  private static ResourceEntry entry(DocSnapshot s) {
    String title = s.state() == null ? null : s.state().title();
    String name = s.path().substring(s.path().lastIndexOf('/') + 1);
    long size = s.fingerprint() == null ? -1 : s.fingerprint().size();
    return new ResourceEntry(
        ResourceUris.of(s.path()),
        name,
        title == null || title.isBlank() ? name : title,
        s.path() + " at revision " + s.rev(),
        MARKDOWN,
        size);
  }

  @Override
  public List<ResourceTemplate> templates() {
    return List.of(
        new ResourceTemplate(
            ResourceUris.SCHEME + "{+path}",
            "document",
            "A gram document",
            "Any document of the vault by its path (mounts under @mounts/<id>/): readable "
                + "Markdown, then the .gram source. Subscribe to a folder with a URI ending in /.",
            MARKDOWN));
  }

  @Override
  public Future<List<ResourceContent>> read(String uri) {
    VaultPath path;
    try {
      path = source.paths().document(ResourceUris.path(uri));
    } catch (GramException e) {
      return Future.failedFuture(e);
    }
    return source
        .read(path)
        .recover(e -> Future.failedFuture(notFound(uri, e)))
        .map(
            s -> {
              String md = DocumentMarkdown.render(s, BodyRefs.in(s.requireState(), source));
              String source = GramWriter.write(s.requireState());
              return List.of(
                  new ResourceContent(uri, MARKDOWN, md), new ResourceContent(uri, GRAM, source));
            });
  }

  private static Throwable notFound(String uri, Throwable e) {
    if (e instanceof GramException g && g.code() == ErrorCode.E_ARGUMENT) {
      return new GramException(
          ErrorCode.E_ARGUMENT,
          "Resource not found: " + uri,
          new JsonObject().put("uri", uri).put("reason", NOT_FOUND));
    }
    return e;
  }

  @Override
  public ResourceScope scope(String uri) {
    String raw = ResourceUris.path(uri);
    if (raw.isEmpty() || raw.endsWith("/")) {
      VaultPath folder = source.paths().folder(raw);
      Gate.checkFolder(caller, folder.path());
      String prefix = folder.path().isEmpty() ? "" : folder.path() + "/";
      return new ResourceScope(uri, prefix, true);
    }
    VaultPath doc = source.paths().document(raw);
    Gate.check(caller, doc.path(), false);
    return new ResourceScope(uri, doc.path(), false);
  }

  @Override
  public ChangeFeed changes() {
    return feed;
  }
}
