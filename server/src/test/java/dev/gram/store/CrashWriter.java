package dev.gram.store;

import dev.gram.edit.Creation;
import dev.gram.edit.PatchOps;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child process for {@link CrashTest}: writes to a few documents as fast as it can and prints
 * {@code ACK <path> <request_id>} for every write acknowledged, until it is killed.
 */
public final class CrashWriter {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    String run = args[1];
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
    // A checkpoint every few milliseconds: the kill lands in the middle of one as often as in
    // the middle of a commit.
    long lagMs = args.length > 2 ? Long.parseLong(args[2]) : 5;
    Vault vault = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 4,
        new Vault.Durability(Vault.LogMode.WRITE, java.time.Duration.ofMillis(lagMs)));
    vault.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    out.println("READY");
    String[] docs = CrashTest.DOCS.toArray(String[]::new);
    for (String d : docs) {
      VaultPath vp = vault.paths().writableDocument(d);
      if (vault.peek(d) == null) {
        Creation.Result r = Creation.build(Creation.newDocumentId(), d, "", id -> false);
        vault.submit(new WriteCommand.Create(vp, r.state(), "crash", null, r.created(), r.diagnostics()))
            .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      }
    }
    // One writer per document, all at once: three documents share folder a, so their commits
    // share folder fsyncs (group commit) when the kill comes.
    List<Thread> writers = new java.util.ArrayList<>();
    for (String d : docs) {
      Thread t = new Thread(() -> {
        try {
          writeForever(vault, d, run, out);
        } catch (Exception e) {
          e.printStackTrace();
        }
      });
      t.start();
      writers.add(t);
    }
    for (Thread t : writers) {
      t.join();
    }
  }

  private static void writeForever(Vault vault, String d, String run, PrintStream out) throws Exception {
    VaultPath vp = vault.paths().writableDocument(d);
    for (long n = 0; ; n++) {
      DocSnapshot s = vault.read(vp).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      String id = run + "-" + d.replaceAll("\\W", "") + "-" + n;
      JsonArray ops = new JsonArray().add(new JsonObject().put("op", "add").put("record",
          new JsonObject().put("type", "event").put("id", "e-" + id)
              .put("fields", new JsonObject().put("t", new JsonArray().add("Event " + id)))));
      String digest = RequestDigest.of(vp.path(), s.rev(), s.shortHash(), ops, null);
      vault.submit(new WriteCommand.Patch(vp, s.rev(), s.shortHash(), id, digest, ops, "crash", null))
          .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      out.println("ACK " + d + " " + id);
    }
  }
}
