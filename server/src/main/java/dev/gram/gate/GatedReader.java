package dev.gram.gate;

import dev.gram.access.ApprovalException;
import dev.gram.access.Approvals;
import dev.gram.access.Identity;
import dev.gram.store.DocSnapshot;
import dev.gram.store.DocumentReader;
import dev.gram.store.PathResolver;
import dev.gram.store.VaultPath;
import io.vertx.core.Future;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The store as one identity may read it. Every way a reader reaches a document goes through here,
 * so a tool, a resource or a page built on this reader cannot show what the caller's {@link
 * Approvals} do not reach:
 *
 * <ul>
 *   <li>{@link #read} of a document outside the approvals fails with {@code E_PATH}, before the
 *       store is asked, so the answer is the same whether or not it exists;
 *   <li>{@link #documents} and {@link #documentsUnder} hold only readable documents, and a folder
 *       that may not be named (neither readable nor above an approved folder) is {@code E_PATH};
 *   <li>{@link #peek} and {@link #pathOfDocumentId} (how links and placements find other
 *       documents) see an unreadable document as absent: a link into it reads as unresolved.
 * </ul>
 *
 * <p>Approvals are asked for at each call, so a reloaded agents file applies to the next call.
 */
public final class GatedReader implements DocumentReader {
  private final DocumentReader store;
  private final Identity caller;

  GatedReader(DocumentReader store, Identity caller) {
    this.store = store;
    this.caller = caller;
  }

  /** The identity this reader reads for. */
  public Identity caller() {
    return caller;
  }

  private Approvals approvals() {
    return caller.approvals();
  }

  @Override
  public PathResolver paths() {
    return store.paths();
  }

  @Override
  public Future<Void> scanned() {
    return store.scanned();
  }

  @Override
  public Future<DocSnapshot> read(VaultPath path) {
    if (!approvals().mayRead(path.path())) {
      return Future.failedFuture(ApprovalException.outside());
    }
    return store.read(path);
  }

  @Override
  public DocSnapshot peek(String path) {
    return path != null && approvals().mayRead(path) ? store.peek(path) : null;
  }

  @Override
  public List<DocSnapshot> documents() {
    return readable(store.documents(), approvals());
  }

  @Override
  public List<DocSnapshot> documentsUnder(VaultPath folder) {
    Approvals a = approvals();
    if (!a.mayName(folder.path())) {
      throw ApprovalException.outside();
    }
    return readable(store.documentsUnder(folder), a);
  }

  private static List<DocSnapshot> readable(List<DocSnapshot> all, Approvals a) {
    if (a.everything()) {
      return all;
    }
    List<DocSnapshot> out = new ArrayList<>();
    for (DocSnapshot s : all) {
      if (a.mayRead(s.path())) {
        out.add(s);
      }
    }
    return out;
  }

  @Override
  public String pathOfDocumentId(String documentId) {
    String path = store.pathOfDocumentId(documentId);
    return path != null && approvals().mayRead(path) ? path : null;
  }

  @Override
  public Instant visibleThrough() {
    return store.visibleThrough();
  }

  @Override
  public Executor io() {
    return store.io();
  }
}
