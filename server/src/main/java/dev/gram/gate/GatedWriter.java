package dev.gram.gate;

import dev.gram.access.ApprovalException;
import dev.gram.access.Approvals;
import dev.gram.access.Identity;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocumentWriter;
import dev.gram.store.WriteCommand;
import io.vertx.core.Future;

/**
 * The store's writer as one identity may use it: a command to a path the caller may not read is
 * {@code E_PATH}, to one it may only read {@code E_READ_ONLY}; anything else goes on unchanged to
 * the writer behind it (the local actors, or the cluster that routes it to the document's owner,
 * which is why a routed write is checked once, here, on the node that received the call).
 */
public final class GatedWriter implements DocumentWriter {
  private final DocumentWriter store;
  private final Identity caller;

  GatedWriter(DocumentWriter store, Identity caller) {
    this.store = store;
    this.caller = caller;
  }

  @Override
  public Future<CommitReceipt> submit(WriteCommand command) {
    Approvals a = caller.approvals();
    String path = command.path().path();
    if (!a.mayRead(path)) {
      return Future.failedFuture(ApprovalException.outside());
    }
    if (!a.mayWrite(path)) {
      return Future.failedFuture(ApprovalException.readOnly(path));
    }
    return store.submit(command);
  }
}
