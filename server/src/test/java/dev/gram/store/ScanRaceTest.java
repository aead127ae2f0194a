package dev.gram.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.edit.PatchOps;
import dev.gram.testing.disk.SimulatedDisk;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write that arrives while the start-up scan still runs waits for it, and its receipt comes
 * back on the caller's event loop, not on the I/O thread that finished the scan: code a tool
 * composes on the receipt must never run where it could block I/O, or race the event loop.
 */
class ScanRaceTest {
  @TempDir Path dir;

  @Test
  void aWriteDuringTheStartUpScanAnswersOnTheCallersEventLoop() throws Exception {
    CommitReceipt created;
    try (TestVault t = TestVault.open(dir)) {
      created = t.create("p/a.gram", "A", "");
      t.create("p/slow.gram", "Slow", "");
    }
    SimulatedDisk disk = SimulatedDisk.over(dir);
    // The scan reads every document; it stops at this one until the write is queued.
    SimulatedDisk.Hold scanHeld = disk.holdReads(name -> name.equals("slow.gram"));
    Vault vault = new Vault(new PathResolver(disk.root(), List.of()), new PatchOps(), Clock.systemUTC(), 4);
    Vertx vertx = Vertx.vertx();
    try {
      vault.start();
      Context loop = vertx.getOrCreateContext();
      CompletableFuture<Context> answeredOn = new CompletableFuture<>();
      CompletableFuture<Boolean> queuedBeforeScanEnded = new CompletableFuture<>();
      loop.runOnContext(v -> {
        VaultPath p = vault.paths().writableDocument("p/a.gram");
        JsonArray ops = TestVault.ops(TestVault.add("task", "t1", "One"));
        queuedBeforeScanEnded.complete(!vault.scanComplete());
        vault.submit(new WriteCommand.Patch(p, 0, created.hash(), "during-scan",
                RequestDigest.of(p.path(), 0, created.hash(), ops, null), ops, "agent", null))
            .onComplete(ar -> answeredOn.complete(ar.succeeded() ? Vertx.currentContext() : null));
      });
      assertThat(scanHeld.reached(java.time.Duration.ofSeconds(10))).as("the scan reached the held file").isTrue();
      assertThat(queuedBeforeScanEnded.get(10, TimeUnit.SECONDS)).as("the write came while the scan ran").isTrue();
      scanHeld.release();
      Context ctx = answeredOn.get(30, TimeUnit.SECONDS);
      assertThat(ctx).as("the write was acknowledged").isNotNull();
      assertThat(ctx).as("on the caller's context").isSameAs(loop);
      assertThat(ctx.isEventLoopContext()).isTrue();
    } finally {
      scanHeld.release();
      Promise<Void> closed = Promise.promise();
      vault.close().onComplete(closed);
      closed.future().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      vertx.close();
    }
  }
}
