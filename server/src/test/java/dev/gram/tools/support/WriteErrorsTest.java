package dev.gram.tools.support;

import static dev.gram.testing.StoreWrites.add;
import static dev.gram.testing.StoreWrites.del;
import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.gram.base.ErrorCode;
import dev.gram.base.GramException;
import dev.gram.edit.PatchOps;
import dev.gram.format.Revision;
import dev.gram.format.Times;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocSnapshot;
import dev.gram.store.PathResolver;
import dev.gram.store.RequestReuseException;
import dev.gram.store.StaleRevisionException;
import dev.gram.store.Vault;
import dev.gram.testing.StoreWrites;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store raises what it found (the document as it is, the caller's base, where a request_id was
 * used); {@link WriteErrors} gives it the contract's details. Driven through a real vault.
 */
class WriteErrorsTest {
  @TempDir Path dir;
  Vault vault;
  StoreWrites store;

  @BeforeEach
  void open() {
    vault = new Vault(new PathResolver(dir, List.of()), new PatchOps(), Clock.systemUTC(), 4);
    StoreWrites.await(vault.start());
    store = new StoreWrites(vault);
  }

  @AfterEach
  void close() {
    StoreWrites.await(vault.close());
  }

  private Throwable fails(Runnable write) {
    Throwable t = catchThrowable(write::run);
    assertThat(t).as("the write should fail").isNotNull();
    return t;
  }

  @Test
  void staleRevisionFromABaseSaysWhatChangedSinceItAndByWhom() {
    CommitReceipt c =
        store.create("p/a.gram", "A", new JsonObject().put("text", "").put("records",
            new JsonArray().add(record("task", "t0", "Zero"))));
    store.patch("p/a.gram", ops(add(record("task", "t1", "One")), add(record("task", "t2", "Two"))), "ann", null, null);
    store.patch("p/a.gram", ops(set("t2", "d", "more"), set("doc", "d", "about")), "bob", null, null);
    store.patch("p/a.gram", ops(del("t0")), "ann", null, null);

    Throwable raised = fails(() -> store.patchAt("p/a.gram", 0, c.hash(), ops(set("doc", "d", "x")), "cy", null, "late"));
    assertThat(raised).isInstanceOf(StaleRevisionException.class);
    GramException shown = (GramException) WriteErrors.forClient(raised);

    DocSnapshot now = store.read("p/a.gram");
    assertThat(shown.code()).isEqualTo(ErrorCode.STALE_REVISION);
    assertThat(shown.getMessage()).isEqualTo("Accepted revision or hash changed");
    JsonArray revisions = new JsonArray();
    for (int r = 1; r <= 3; r++) {
      Revision rev = now.revisions().get(r);
      revisions.add(new JsonArray().add(r).add(rev.by()).add(Times.format(rev.recordedAt())).add(rev.countSummary()));
    }
    // Key order included: the details are on the wire exactly as before the store stopped building them.
    assertThat(shown.details().encode())
        .isEqualTo(new JsonObject()
            .put("path", "p/a.gram").put("rev", 3).put("hash", now.shortHash()).put("base_revision", 0)
            .put("added", new JsonArray().add("t1").add("t2"))
            .put("changed", new JsonArray().add("doc"))
            .put("removed", new JsonArray().add("t0"))
            .put("by", new JsonArray().add("ann").add("bob"))
            .put("revisions", revisions)
            .encode());
  }

  @Test
  void staleRevisionListsOnlyTheLastTwentyRevisions() {
    CommitReceipt c = store.create("p/long.gram", "Long", "");
    for (int i = 0; i < 22; i++) {
      store.patch("p/long.gram", ops(set("doc", "d", "v" + i)));
    }
    Throwable raised = fails(() -> store.patchAt("p/long.gram", 0, c.hash(), ops(set("doc", "d", "x")), "cy", null, null));
    JsonArray revisions = ((GramException) WriteErrors.forClient(raised)).details().getJsonArray("revisions");
    assertThat(revisions).hasSize(WriteErrors.REVISIONS_SHOWN);
    assertThat(revisions.getJsonArray(0).getInteger(0)).isEqualTo(3);
    assertThat(revisions.getJsonArray(19).getInteger(0)).isEqualTo(22);
  }

  @Test
  void aWrongHashAtTheCurrentRevisionAndAnExistingCreateTargetNameTheCurrentPairOnly() {
    CommitReceipt c = store.create("p/b.gram", "B", "");
    GramException wrongHash = (GramException) WriteErrors.forClient(
        fails(() -> store.patchAt("p/b.gram", 0, "0000000000000000", ops(set("doc", "d", "x")), "cy", null, null)));
    assertThat(wrongHash.details().encode())
        .isEqualTo("{\"path\":\"p/b.gram\",\"rev\":0,\"hash\":\"" + c.hash() + "\",\"base_revision\":0}");

    GramException exists = (GramException) WriteErrors.forClient(fails(() -> store.create("p/b.gram", "B", "")));
    assertThat(exists.code()).isEqualTo(ErrorCode.STALE_REVISION);
    assertThat(exists.getMessage()).isEqualTo("Create target already exists");
    assertThat(exists.details().encode()).isEqualTo("{\"path\":\"p/b.gram\",\"rev\":0,\"hash\":\"" + c.hash() + "\"}");
  }

  @Test
  void aReusedRequestIdNamesWhereItWasUsed() {
    CommitReceipt c = store.create("p/c.gram", "C", "");
    store.patchAt("p/c.gram", 0, c.hash(), ops(set("doc", "d", "x")), "cy", null, "once");
    Throwable raised = fails(() -> store.patchAt("p/c.gram", 0, c.hash(), ops(set("doc", "d", "y")), "cy", null, "once"));
    assertThat(raised).isInstanceOf(RequestReuseException.class);
    GramException shown = (GramException) WriteErrors.forClient(raised);
    assertThat(shown.code()).isEqualTo(ErrorCode.E_REQUEST_REUSE);
    assertThat(shown.getMessage()).isEqualTo("request_id belongs to another intent");
    assertThat(shown.details().encode()).isEqualTo("{\"path\":\"p/c.gram\",\"revision\":1}");
    assertThat(((GramException) WriteErrors.forClient(new RequestReuseException("m", "p/c.gram", null))).details().encode())
        .as("a write still in flight has no revision yet")
        .isEqualTo("{\"path\":\"p/c.gram\"}");
  }

  @Test
  void otherFailuresPassThroughUnchanged() {
    GramException notFound = new GramException(ErrorCode.E_ARGUMENT, "Document not found: p/x.gram");
    assertThat(WriteErrors.forClient(notFound)).isSameAs(notFound);
    IllegalStateException bug = new IllegalStateException("bug");
    assertThat(WriteErrors.forClient(bug)).isSameAs(bug);
  }
}
