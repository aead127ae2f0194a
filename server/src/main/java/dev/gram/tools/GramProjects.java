package dev.gram.tools;

import dev.gram.access.Access;
import dev.gram.access.Approvals;
import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.store.DocSnapshot;
import dev.gram.store.PathResolver;
import dev.gram.store.VaultPath;
import dev.gram.tools.support.Deadline;
import dev.gram.tools.support.GramContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code gram_projects}: the vault's project folders (folders directly under it, with how many
 * documents each holds, empty ones included) and its mounts, each with the exact key agents use
 * as a path prefix.
 *
 * <p>A restricted caller sees the projects and mounts it may name (approved, or holding an
 * approved folder), each counting only the documents it may read, with its own access: never the
 * names or the number of what lies outside its approvals.
 */
public final class GramProjects extends ReadTool {
  public GramProjects(GramContext ctx) {
    super(ctx, "gram_projects");
  }

  @Override
  public String description() {
    return "The vault shared with agents: its project folders as [name, document count], and its mounts as "
        + "{key, id, kind, name, count, access}. Use a mount's exact key as the path prefix "
        + "(@mounts/<id>/project/doc.gram); the @mounts namespace never shadows a project. access is read or write.";
  }

  @Override
  Future<JsonObject> read(JsonObject args, Deadline deadline) {
    // Empty project folders exist only on disk: listing them is file I/O, done off the event loop.
    return offLoop(deadline, this::answer);
  }

  /**
   * Every project and mount is listed, with nothing to page: an answer over the budget is left to
   * the protocol layer's check, which reports its size.
   */
  @Override
  Future<JsonObject> withinBudget(JsonObject answer) {
    return Future.succeededFuture(answer);
  }

  private JsonObject answer() {
    PathResolver paths = ctx.reader().paths();
    Approvals approvals = ctx.caller().approvals();
    Map<String, Integer> projects = new TreeMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(paths.vaultRoot())) {
      for (Path p : ds) {
        String name = p.getFileName().toString();
        if (Files.isDirectory(p) && !name.startsWith(".") && !name.startsWith("@") && approvals.mayName(name)) {
          projects.put(name, 0);
        }
      }
    } catch (IOException e) {
      throw new GramException(ErrorCode.E_STORAGE, "Cannot list the vault: " + e.getMessage());
    }
    Map<String, Integer> mountCounts = new TreeMap<>();
    for (DocSnapshot s : ctx.reader().documents()) {
      String path = s.path();
      if (path.startsWith(PathResolver.MOUNTS + "/")) {
        String id = path.split("/")[1];
        mountCounts.merge(id, 1, Integer::sum);
      } else {
        int slash = path.indexOf('/');
        if (slash > 0) {
          projects.merge(path.substring(0, slash), 1, Integer::sum);
        }
      }
    }
    JsonArray projectRows = new JsonArray();
    projects.forEach((name, count) -> projectRows.add(new JsonArray().add(name).add(count)));
    JsonArray mounts = new JsonArray();
    for (VaultPath.MountPoint m : paths.mounts()) {
      if (!approvals.mayName(m.key())) {
        continue;
      }
      Access access = m.writable() ? approvals.bestWithin(m.key()) : approvals.bestWithin(m.key()).and(Access.READ);
      mounts.add(
          new JsonObject()
              .put("access", access.word())
              .put("count", mountCounts.getOrDefault(m.id(), 0))
              .put("id", m.id())
              .put("key", m.key())
              .put("kind", "folder")
              .put("name", m.root().getFileName() == null ? m.id() : m.root().getFileName().toString()));
    }
    Path vaultName = paths.vaultRoot().getFileName();
    return new JsonObject()
        .put("access", approvals.best().word())
        .put("mounts", mounts)
        .put("projects", projectRows)
        .put("vault", vaultName == null ? "vault" : vaultName.toString());
  }
}
