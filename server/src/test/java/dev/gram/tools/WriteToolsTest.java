package dev.gram.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.GramTestServer;
import dev.gram.testing.SharedContract;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** gram_create and gram_patch as a client sees them, on a real vault. */
class WriteToolsTest {
  @TempDir Path tmp;
  Path vault;
  GramTestServer gram;

  @BeforeEach
  void start() {
    vault = tmp.resolve("vault");
    gram = GramTestServer.start(vault);
  }

  @AfterEach
  void stop() {
    gram.close();
  }

  private JsonObject create(String path, String body) {
    return gram.call("gram_create", new JsonObject().put("path", path).put("base_revision", (Object) null)
        .put("title", "T").put("content", body)).ok();
  }

  private ToolResult patch(String path, JsonObject doc, String requestId, JsonObject... ops) {
    JsonArray a = new JsonArray();
    for (JsonObject o : ops) {
      a.add(o);
    }
    return gram.call("gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
        .put("expected_hash", doc.getString("hash")).put("request_id", requestId).put("operations", a));
  }

  private static JsonObject op(String json) {
    return new JsonObject(json);
  }

  @Test
  void theContractsCreateThenPatchSequenceAnswersInTheContractsShape() {
    JsonObject tools = SharedContract.tools();
    JsonObject createReq = tools.getJsonObject("gram_create").getJsonObject("exampleRequest");
    JsonObject created = gram.call("gram_create", createReq).ok();
    JsonObject expectedCreate = tools.getJsonObject("gram_create").getJsonObject("exampleResult").getJsonObject("structuredContent");
    assertThat(created.fieldNames()).isEqualTo(expectedCreate.fieldNames());
    assertThat(created.getJsonArray("created")).isEqualTo(expectedCreate.getJsonArray("created"));
    assertThat(created.getJsonObject("doc").getString("path")).isEqualTo("descriptor-fixture/doc.gram");
    assertThat(created.getJsonObject("doc").getInteger("rev")).isZero();
    assertThat(created.getJsonObject("doc").getString("hash")).matches("[0-9a-f]{16}");
    assertThat(created.getJsonObject("receipt")).isEqualTo(expectedCreate.getJsonObject("receipt"));

    JsonObject patchReq = tools.getJsonObject("gram_patch").getJsonObject("exampleRequest").copy();
    patchReq.put("expected_hash", created.getJsonObject("doc").getString("hash"));
    JsonObject patched = gram.call("gram_patch", patchReq).ok();
    JsonObject expectedPatch = tools.getJsonObject("gram_patch").getJsonObject("exampleResult").getJsonObject("structuredContent");
    assertThat(patched.fieldNames()).isEqualTo(expectedPatch.fieldNames());
    assertThat(patched.getJsonArray("created")).isEqualTo(expectedPatch.getJsonArray("created"));
    assertThat(patched.getJsonObject("receipt")).isEqualTo(expectedPatch.getJsonObject("receipt"));
    assertThat(patched.getJsonObject("doc").getInteger("rev")).isEqualTo(1);
    assertThat(patched.getJsonObject("doc").getString("hash")).isNotEqualTo(created.getJsonObject("doc").getString("hash"));
  }

  @Test
  void createWritesFieldsBlocksRichBodyRecordsAndEffectiveTime() throws Exception {
    JsonObject content = new JsonObject()
        .put("rich", new JsonObject().put("type", "doc").put("content", new JsonArray()
            .add(new JsonObject().put("type", "heading").put("level", 1).put("text", "Plan"))
            .add(new JsonObject().put("type", "item").put("ref", "t1"))
            .add(new JsonObject().put("type", "sparkle"))))
        .put("fields", new JsonObject().put("tag", new JsonArray().add("alpha").add("beta")))
        .put("blocks", new JsonArray().add(new JsonObject().put("name", "summary").put("text", "line one\n::end\nline three")))
        .put("records", new JsonArray()
            .add(new JsonObject().put("type", "task").put("fields", new JsonObject().put("t", new JsonArray().add("Generated id"))))
            .add(new JsonObject().put("type", "TSK").put("id", "t1").put("fields", new JsonObject()
                .put("t", new JsonArray().add("Do it")).put("due", new JsonArray().add("next week")))));
    JsonObject r = gram.call("gram_create", new JsonObject().put("path", "newproj/plan.gram").put("base_revision", (Object) null)
        .put("title", "Plan").put("content", content).put("effective_at", "2026-10-01")).ok();
    assertThat(r.getJsonArray("created").getList()).hasSize(2).contains("t1");
    assertThat(r.getJsonArray("created").getString(0)).matches("tsk_[0-9a-f]{8}");
    JsonArray diagnostics = r.getJsonArray("diagnostics");
    assertThat(diagnostics.encode()).contains("unsupported_node").contains("unparsed_value").contains("next week");
    String file = checkpointedFile("newproj/plan.gram");
    assertThat(file).contains("\nt Plan\ntag alpha\ntag beta\n").contains("::rich\n# Plan\n\n[[t1]]\n::end\n")
        .contains("::summary\nline one\n\\::end\nline three\n::end\n").contains("\neff 2026-10-01\n");
  }

  /** Each way a create is refused, checked on its own: the code, the message, and no file written. */
  @Test
  void aRefusedCreateSaysWhyAndWritesNothing() throws Exception {
    org.assertj.core.api.SoftAssertions softly = new org.assertj.core.api.SoftAssertions();
    create("p/a.gram", "x");
    byte[] before = Files.readAllBytes(vault.resolve("p/a.gram"));
    ToolResult exists = gram.call("gram_create", new JsonObject().put("path", "p/a.gram").put("base_revision", (Object) null).put("title", "T").put("content", "other"));
    softly.assertThat(exists.code()).isEqualTo("STALE_REVISION");
    softly.assertThat(exists.message()).isEqualTo("Create target already exists");
    softly.assertThat(Files.readAllBytes(vault.resolve("p/a.gram"))).isEqualTo(before);

    ToolResult missingBase = gram.call("gram_create", new JsonObject().put("path", "p/b.gram").put("title", "T").put("content", ""));
    softly.assertThat(missingBase.code()).isEqualTo("E_CAS_REQUIRED");
    softly.assertThat(missingBase.message()).isEqualTo("Create requires explicit null base_revision");
    ToolResult nonNullBase = gram.call("gram_create", new JsonObject().put("path", "p/b.gram").put("base_revision", 0).put("title", "T").put("content", ""));
    softly.assertThat(nonNullBase.code()).isEqualTo("E_CAS_REQUIRED");

    ToolResult unknownArgument = gram.call("gram_create", new JsonObject().put("path", "p/b.gram").put("base_revision", (Object) null).put("title", "T").put("content", "").put("colour", "red"));
    softly.assertThat(unknownArgument.code()).isEqualTo("E_ARGUMENT");
    softly.assertThat(unknownArgument.message()).isEqualTo("Unknown argument colour");
    softly.assertThat(vault.resolve("p/b.gram")).doesNotExist();

    ToolResult absolute = gram.call("gram_create", new JsonObject().put("path", "/tmp/x.gram").put("base_revision", (Object) null).put("title", "T").put("content", ""));
    softly.assertThat(absolute.code()).isEqualTo("E_PATH");
    softly.assertThat(absolute.message()).isEqualTo("Absolute paths are outside the approved folder");
    ToolResult notGram = gram.call("gram_create", new JsonObject().put("path", "p/readme.md").put("base_revision", (Object) null).put("title", "T").put("content", ""));
    softly.assertThat(notGram.code()).isEqualTo("E_ARGUMENT");
    ToolResult badRecord = gram.call("gram_create", new JsonObject().put("path", "p/c.gram").put("base_revision", (Object) null).put("title", "T")
        .put("content", new JsonObject().put("records", new JsonArray().add(new JsonObject().put("type", "spaceship").put("id", "s")))));
    softly.assertThat(badRecord.code()).isEqualTo("E_ARGUMENT");
    softly.assertThat(vault.resolve("p/c.gram")).doesNotExist();
    softly.assertAll();
  }

  /** Every patch operation in turn; the file is checked once they all ran, each expectation on its own. */
  @Test
  void everyPatchOperationWritesWhatItSays() throws Exception {
    org.assertj.core.api.SoftAssertions softly = new org.assertj.core.api.SoftAssertions();
    JsonObject doc = create("p/ops.gram", "# Intro\n\nFirst paragraph.\n\n# Later\n\nLast words.").getJsonObject("doc");
    doc = patch("p/ops.gram", doc, "add", op("{\"op\":\"add\",\"record\":{\"type\":\"decision\",\"id\":\"d1\",\"fields\":{\"t\":[\"Choose\"],\"tag\":[\"a\"]}}}"),
        op("{\"op\":\"add\",\"record\":{\"type\":\"event\",\"id\":\"ev1\",\"fields\":{\"t\":[\"Shipped\"],\"at\":[\"2026-10-02\"]}}}")).ok().getJsonObject("doc");
    doc = patch("p/ops.gram", doc, "set", op("{\"op\":\"set\",\"entity\":\"d1\",\"key\":\"d\",\"value\":\"why\"}"),
        op("{\"op\":\"set\",\"entity\":\"doc\",\"key\":\"view\",\"value\":\"document\"}")).ok().getJsonObject("doc");
    doc = patch("p/ops.gram", doc, "append", op("{\"op\":\"append\",\"entity\":\"d1\",\"key\":\"tag\",\"value\":\"b\"}")).ok().getJsonObject("doc");
    doc = patch("p/ops.gram", doc, "remove", op("{\"op\":\"remove\",\"entity\":\"d1\",\"key\":\"tag\",\"value\":\"a\"}")).ok().getJsonObject("doc");
    doc = patch("p/ops.gram", doc, "unset", op("{\"op\":\"unset\",\"entity\":\"doc\",\"key\":\"view\"}")).ok().getJsonObject("doc");
    doc = patch("p/ops.gram", doc, "block", op("{\"op\":\"block\",\"entity\":\"d1\",\"name\":\"reason\",\"text\":\"Because.\"}")).ok().getJsonObject("doc");
    doc = patch("p/ops.gram", doc, "link", op("{\"op\":\"link\",\"entity\":\"ev1\",\"predicate\":\"implements\",\"target\":\"d1\"}"),
        op("{\"op\":\"link\",\"entity\":\"ev1\",\"link\":[\"related\",\"d1\"]}")).ok().getJsonObject("doc");
    doc = patch("p/ops.gram", doc, "unlink", op("{\"op\":\"unlink\",\"entity\":\"ev1\",\"predicate\":\"related\",\"target\":\"d1\"}")).ok().getJsonObject("doc");
    JsonObject relAnswer = patch("p/ops.gram", doc, "rel", op("{\"op\":\"rel\",\"id\":\"r1\",\"from\":\"d1\",\"predicate\":\"depends\",\"to\":\"ev1\"}")).ok();
    softly.assertThat(relAnswer.getJsonArray("created").getList()).containsExactly("r1");
    doc = relAnswer.getJsonObject("doc");
    String file = checkpointedFile("p/ops.gram");
    String top = file.substring(0, file.indexOf("@history"));
    softly.assertThat(top).contains("\nDEC d1\nt Choose\ntag b\nd why\n::reason\nBecause.\n::end\n")
        .contains("\nEVT ev1\nt Shipped\nat 2026-10-02\n-> implements d1\n\n")
        .contains("\nREL r1\nfrom d1\nrel depends\nto ev1\n")
        .doesNotContain("view document");
    doc = patch("p/ops.gram", doc, "del", op("{\"op\":\"del\",\"entity\":\"d1\"}")).ok().getJsonObject("doc");
    top = checkpointedFile("p/ops.gram");
    top = top.substring(0, top.indexOf("@history"));
    // del takes the record's links and REL edges with it.
    softly.assertThat(top).doesNotContain("DEC d1").doesNotContain("-> implements d1").doesNotContain("REL r1");
    softly.assertThat(doc.getInteger("rev")).isEqualTo(10);
    softly.assertAll();
  }

  @Test
  void eachPlacementAndBodyEdit() throws Exception {
    JsonObject doc = create("p/body.gram", "# Intro\n\nFirst paragraph.\n\n# Later\n\nLast words.").getJsonObject("doc");
    doc = patch("p/body.gram", doc, "end", op("{\"op\":\"add\",\"record\":{\"type\":\"task\",\"id\":\"t-end\",\"fields\":{\"t\":[\"End\"]}},\"place\":\"end\"}")).ok().getJsonObject("doc");
    doc = patch("p/body.gram", doc, "section", op("{\"op\":\"add\",\"record\":{\"type\":\"task\",\"id\":\"t-sec\",\"fields\":{\"t\":[\"In intro\"]}},\"place\":{\"section\":\"Intro\"}}")).ok().getJsonObject("doc");
    doc = patch("p/body.gram", doc, "after", op("{\"op\":\"add\",\"record\":{\"type\":\"task\",\"id\":\"t-after\",\"fields\":{\"t\":[\"After\"]}},\"place\":{\"after\":\"t-sec\"}}")).ok().getJsonObject("doc");
    doc = patch("p/body.gram", doc, "before", op("{\"op\":\"add\",\"record\":{\"type\":\"task\",\"id\":\"t-before\",\"fields\":{\"t\":[\"Before\"]}},\"place\":{\"before\":\"t-sec\"}}")).ok().getJsonObject("doc");
    assertThat(body()).isEqualTo("# Intro\n\nFirst paragraph.\n\n[[t-before]]\n\n[[t-sec]]\n\n[[t-after]]\n\n# Later\n\nLast words.\n\n[[t-end]]");

    String para = outlineId("First paragraph.");
    doc = patch("p/body.gram", doc, "insert", op("{\"op\":\"insert\",\"md\":\"Inserted.\",\"after\":\"" + para + "\"}")).ok().getJsonObject("doc");
    doc = patch("p/body.gram", doc, "replace", op("{\"op\":\"replace\",\"node\":\"" + outlineId("Last words.") + "\",\"md\":\"New last words.\"}")).ok().getJsonObject("doc");
    doc = patch("p/body.gram", doc, "drop", op("{\"op\":\"drop\",\"node\":\"" + outlineId("Inserted.") + "\"}")).ok().getJsonObject("doc");
    doc = patch("p/body.gram", doc, "move", op("{\"op\":\"move\",\"node\":\"t-end\",\"section\":\"Intro\"}")).ok().getJsonObject("doc");
    assertThat(body()).isEqualTo("# Intro\n\nFirst paragraph.\n\n[[t-before]]\n\n[[t-sec]]\n\n[[t-after]]\n\n[[t-end]]\n\n# Later\n\nNew last words.");
    // Deleting a record removes its placement with it.
    doc = patch("p/body.gram", doc, "del", op("{\"op\":\"del\",\"entity\":\"t-sec\"}")).ok().getJsonObject("doc");
    assertThat(body()).doesNotContain("[[t-sec]]");
    doc = patch("p/body.gram", doc, "whole", op("{\"op\":\"body\",\"md\":\"# Only\\n\\n[[t-after]]\\n\\n[[missing]]\"}")).ok().getJsonObject("doc");
    assertThat(body()).isEqualTo("# Only\n\n[[t-after]]\n\n[[missing]]");
  }

  @Test
  void writesWithUnresolvedReferencesAreCommittedWithDiagnostics() {
    JsonObject doc = create("p/diag.gram", "").getJsonObject("doc");
    JsonObject r = patch("p/diag.gram", doc, "diag",
        op("{\"op\":\"add\",\"record\":{\"type\":\"evidence\",\"id\":\"e1\",\"fields\":{\"t\":[\"E\"]},\"links\":[[\"supports\",\"nowhere\"]]}}"),
        op("{\"op\":\"body\",\"md\":\"See [this](@ghost).\"}")).ok();
    assertThat(r.getJsonObject("doc").getInteger("rev")).isEqualTo(1);
    assertThat(r.getJsonArray("diagnostics").encode()).contains("unresolved_ref").contains("nowhere").contains("ghost");
  }

  private String body() throws Exception {
    String file = checkpointedFile("p/body.gram");
    int open = file.indexOf("::rich\n") + 7;
    return file.substring(open, file.indexOf("\n::end\n", open));
  }

  private String outlineId(String paragraphText) throws Exception {
    dev.gram.format.body.Body b = dev.gram.format.body.Body.parse(body());
    for (dev.gram.format.body.BodyNode n : b.nodes()) {
      if (paragraphText.equals(n.text()) || paragraphText.equals(n.ref())) {
        return n.id();
      }
    }
    throw new AssertionError("no node " + paragraphText);
  }

  @Test
  void patchErrorsEachWithItsCodeAndMessage() {
    JsonObject doc = create("p/e.gram", "").getJsonObject("doc");
    JsonArray someOps = new JsonArray().add(op("{\"op\":\"set\",\"entity\":\"doc\",\"key\":\"d\",\"value\":\"x\"}"));
    ToolResult noBase = gram.call("gram_patch", new JsonObject().put("path", "p/e.gram").put("expected_hash", doc.getString("hash")).put("request_id", "r").put("operations", someOps));
    assertThat(noBase.code()).isEqualTo("E_CAS_REQUIRED");
    assertThat(noBase.message()).isEqualTo("base_revision required");
    ToolResult noId = gram.call("gram_patch", new JsonObject().put("path", "p/e.gram").put("base_revision", 0).put("expected_hash", doc.getString("hash")).put("request_id", "").put("operations", someOps));
    assertThat(noId.code()).isEqualTo("E_REQUEST_ID");
    assertThat(noId.message()).isEqualTo("Nonempty request_id required");
    ToolResult missingId = gram.call("gram_patch", new JsonObject().put("path", "p/e.gram").put("base_revision", 0).put("expected_hash", doc.getString("hash")).put("operations", someOps));
    assertThat(missingId.code()).isEqualTo("E_REQUEST_ID");

    JsonObject next = patch("p/e.gram", doc, "first", op("{\"op\":\"set\",\"entity\":\"doc\",\"key\":\"d\",\"value\":\"x\"}")).ok().getJsonObject("doc");
    ToolResult stale = patch("p/e.gram", doc, "second", op("{\"op\":\"set\",\"entity\":\"doc\",\"key\":\"d\",\"value\":\"y\"}"));
    assertThat(stale.code()).isEqualTo("STALE_REVISION");
    assertThat(stale.message()).isEqualTo("Accepted revision or hash changed");
    assertThat(stale.details().getInteger("rev")).isEqualTo(1);
    assertThat(stale.details().getString("hash")).isEqualTo(next.getString("hash"));
    assertThat(stale.details().getJsonArray("changed").getList()).containsExactly("doc");
    assertThat(stale.details().getJsonArray("by").getList()).containsExactly("test-agent");

    ToolResult reuse = patch("p/e.gram", doc, "first", op("{\"op\":\"set\",\"entity\":\"doc\",\"key\":\"d\",\"value\":\"changed\"}"));
    assertThat(reuse.code()).isEqualTo("E_REQUEST_REUSE");
    assertThat(reuse.message()).isEqualTo("request_id belongs to another intent");

    ToolResult replay = patch("p/e.gram", doc, "first", op("{\"op\":\"set\",\"entity\":\"doc\",\"key\":\"d\",\"value\":\"x\"}"));
    assertThat(replay.ok().getJsonObject("receipt")).isEqualTo(new JsonObject().put("request_id", "first").put("revision", 1).put("status", "success"));

    ToolResult badOp = patch("p/e.gram", next, "bad", op("{\"op\":\"explode\"}"));
    assertThat(badOp.code()).isEqualTo("E_ARGUMENT");
    ToolResult unknownKey = patch("p/e.gram", next, "bad2", op("{\"op\":\"set\",\"entity\":\"doc\",\"key\":\"d\",\"value\":\"x\",\"colour\":\"red\"}"));
    assertThat(unknownKey.code()).isEqualTo("E_ARGUMENT");
    assertThat(unknownKey.message()).startsWith("Unknown argument colour");
  }

  @Test
  void aMultiOperationPatchWhoseLastOperationIsInvalidChangesNothing() throws Exception {
    JsonObject doc = create("p/m.gram", "Body.").getJsonObject("doc");
    byte[] before = Files.readAllBytes(vault.resolve("p/m.gram"));
    ToolResult r = patch("p/m.gram", doc, "multi",
        op("{\"op\":\"add\",\"record\":{\"type\":\"task\",\"id\":\"t1\",\"fields\":{\"t\":[\"One\"]}},\"place\":\"end\"}"),
        op("{\"op\":\"set\",\"entity\":\"t1\",\"key\":\"x\",\"value\":\"open\"}"),
        op("{\"op\":\"link\",\"entity\":\"t1\",\"predicate\":\"loves\",\"target\":\"doc\"}"));
    assertThat(r.code()).isEqualTo("E_ARGUMENT");
    assertThat(r.message()).contains("operations[2]").contains("loves");
    assertThat(Files.readAllBytes(vault.resolve("p/m.gram"))).isEqualTo(before);
  }

  @Test
  void replayAfterARestartReturnsTheOriginalReceipt() {
    JsonObject doc = create("p/r.gram", "").getJsonObject("doc");
    JsonObject first = patch("p/r.gram", doc, "persist", op("{\"op\":\"add\",\"record\":{\"type\":\"task\",\"id\":\"t1\",\"fields\":{\"t\":[\"One\"]}}}")).ok();
    gram.close();
    gram = GramTestServer.start(vault);
    JsonObject again = patch("p/r.gram", doc, "persist", op("{\"op\":\"add\",\"record\":{\"type\":\"task\",\"id\":\"t1\",\"fields\":{\"t\":[\"One\"]}}}")).ok();
    assertThat(again).isEqualTo(first);
  }

  @Test
  void readOnlyMountsRefuseWritesAndCommitUnknownIsSettledByRetry() throws Exception {
    gram.close();
    Files.createDirectories(tmp.resolve("shelf/proj"));
    // The vault on a simulated disk whose next fsync of the folder p fails: a create's last step.
    dev.gram.testing.disk.SimulatedDisk disk = dev.gram.testing.disk.SimulatedDisk.over(vault);
    gram = GramTestServer.start(disk.root(), "--mount", "shelf=" + tmp.resolve("shelf") + ":ro");
    disk.failFsync(name -> name.equals("p"), 1);
    ToolResult ro = gram.call("gram_create", new JsonObject().put("path", "@mounts/shelf/proj/x.gram").put("base_revision", (Object) null).put("title", "T").put("content", ""));
    assertThat(ro.code()).isEqualTo("E_READ_ONLY");
    assertThat(ro.message()).isEqualTo("This mounted folder is read-only to agents");

    ToolResult unknown = gram.call("gram_create", new JsonObject().put("path", "p/u.gram").put("base_revision", (Object) null).put("title", "T").put("content", ""));
    assertThat(unknown.code()).isEqualTo("COMMIT_UNKNOWN");
    assertThat(unknown.message()).startsWith("Replacement published but durability is uncertain: ");
    // A create has no request_id: the agent reads the path, which holds the document.
    assertThat(checkpointedFile("p/u.gram")).startsWith("@gram 2\n");
  }

  @Test
  void sixteenAgentsPatchingOneDocumentWithRetryOnStaleAllLand() throws Exception {
    create("p/busy.gram", "");
    ExecutorService pool = Executors.newFixedThreadPool(16);
    List<Future<Integer>> results = new ArrayList<>();
    for (int a = 0; a < 16; a++) {
      int agent = a;
      Callable<Integer> work = () -> {
        int attempts = 0;
        while (true) {
          attempts++;
          JsonObject doc = currentDoc("p/busy.gram");
          ToolResult r = patch("p/busy.gram", doc, "agent-" + agent + "-try-" + attempts,
              op("{\"op\":\"add\",\"record\":{\"type\":\"evidence\",\"id\":\"e" + agent + "\",\"fields\":{\"t\":[\"From agent " + agent + "\"]}},\"place\":\"end\"}"));
          if (!r.isError()) {
            return attempts;
          }
          assertThat(r.code()).isEqualTo("STALE_REVISION");
        }
      };
      results.add(pool.submit(work));
    }
    for (Future<Integer> f : results) {
      f.get();
    }
    pool.shutdown();
    JsonObject doc = currentDoc("p/busy.gram");
    assertThat(doc.getInteger("rev")).isEqualTo(16);
    String file = checkpointedFile("p/busy.gram");
    for (int a = 0; a < 16; a++) {
      assertThat(file).contains("\nEVD e" + a + "\n").contains("[[e" + a + "]]");
    }
    assertThat(dev.gram.format.GramParser.parseOrThrow(file).history()).hasSize(17);
  }

  private JsonObject currentDoc(String path) {
    dev.gram.store.DocSnapshot s = gram.services().vault().peek(path);
    return new JsonObject().put("rev", s.rev()).put("hash", s.shortHash());
  }

  @Test
  void projectsProfileAndCapabilities() throws Exception {
    create("alpha/a.gram", "");
    create("alpha/b.gram", "");
    Files.createDirectories(vault.resolve("empty-project"));
    JsonObject projects = gram.call("gram_projects", new JsonObject()).ok();
    assertThat(projects.getString("access")).isEqualTo("write");
    assertThat(projects.getJsonArray("projects")).isEqualTo(new JsonArray("[[\"alpha\",2],[\"empty-project\",0]]"));
    assertThat(projects.getJsonArray("mounts")).isEmpty();
    assertThat(projects.getString("vault")).isEqualTo("vault");

    for (String task : List.of("read", "create", "edit", "rich", "memory")) {
      JsonObject p = gram.call("gram_profile", new JsonObject().put("task", task)).ok();
      assertThat(p.getString("task")).isEqualTo(task);
      assertThat(p.getInteger("budget_bytes")).isEqualTo(16384);
      assertThat(p.getJsonObject("common").fieldNames()).contains("records", "links", "body", "writes");
      assertThat(p.encode().getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(16384);
    }
    JsonObject edit = gram.call("gram_profile", new JsonObject().put("task", "edit")).ok();
    for (String opName : dev.gram.edit.PatchOps.OPERATIONS) {
      assertThat(edit.getJsonObject("edit").getJsonObject("operations").fieldNames()).as("profile documents %s", opName).contains(opName);
    }
    assertThat(gram.call("gram_profile", new JsonObject()).ok().getString("task")).isEqualTo("read");

    JsonObject caps = gram.call("gram_capabilities", new JsonObject()).ok();
    assertThat(caps.getInteger("budget_bytes")).isEqualTo(16384);
    assertThat(caps.getJsonObject("index").fieldNames()).containsExactlyInAnyOrder("embeddedChunks", "failedFiles", "indexedFiles", "pendingFiles");
    assertThat(caps.getJsonObject("semantic").getString("status")).isIn("available", "unavailable");
    // The same tools as tools/list; the order is the contract's own (ContractLetterTest).
    assertThat(caps.getJsonArray("tools").getList()).containsExactlyInAnyOrderElementsOf(gram.toolNames());
  }

  /** The file once the checkpointer has written into it every revision the log holds. */
  private String checkpointedFile(String path) throws java.io.IOException {
    gram.services().vault().checkpointNow();
    return Files.readString(vault.resolve(path));
  }
}
