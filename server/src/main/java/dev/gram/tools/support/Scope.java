package dev.gram.tools.support;

import dev.gram.async.Async;
import dev.gram.store.DocSnapshot;
import dev.gram.store.VaultPath;
import dev.gram.base.ErrorCode;
import dev.gram.tools.support.GramContext;
import dev.gram.base.GramException;
import io.vertx.core.Future;
import java.nio.file.Files;
import java.util.List;

/**
 * The documents a folder-wide read covers: one document ({@code path}), the documents anywhere
 * under a folder ({@code folder}), or, with neither (or the root folder), every document the
 * server can reach, mounted collections included. Folder-wide reads wait for the vault's first
 * scan, so a listing never silently misses documents not loaded yet.
 *
 * @param label what the scope is, as answers show it: the path, the folder, or {@code ""}
 * @param docs the snapshots, ordered by path
 */
public record Scope(String label, boolean single, List<DocSnapshot> docs) {

  /** The scope of {@code folder} or {@code path} (at most one of them). */
  public static Future<Scope> of(GramContext ctx, String folder, String path) {
    try {
      if (folder != null && path != null) {
        throw Inputs.bad("give folder or path, not both");
      }
      if (path != null) {
        VaultPath p = ctx.reader().paths().document(path);
        return Snapshots.read(ctx, p).map(s -> new Scope(p.path(), true, List.of(s)));
      }
      return folder(ctx, ctx.reader().paths().folder(folder));
    } catch (GramException e) {
      return Future.failedFuture(e);
    }
  }

  /** Every document under a folder (the root folder: every document). */
  public static Future<Scope> folder(GramContext ctx, VaultPath folder) {
    return ctx.reader()
        .scanned()
        .compose(
            v -> {
              List<DocSnapshot> docs =
                  folder.path().isEmpty()
                      ? ctx.reader().documents()
                      : ctx.reader().documentsUnder(folder);
              if (!docs.isEmpty() || folder.path().isEmpty()) {
                return Future.succeededFuture(new Scope(folder.path(), false, docs));
              }
              // An empty answer must not hide a misspelt folder.
              return Async.run(ctx.reader().io(), () -> Files.isDirectory(folder.file()))
                  .compose(
                      exists ->
                          exists
                              ? Future.succeededFuture(new Scope(folder.path(), false, docs))
                              : Future.failedFuture(
                                  new GramException(
                                      ErrorCode.E_ARGUMENT, "Folder not found: " + folder.path())));
            });
  }
}
