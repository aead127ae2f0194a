package dev.gram.tools;

import static dev.gram.testing.StoreWrites.ops;
import static dev.gram.testing.StoreWrites.record;
import static dev.gram.testing.StoreWrites.set;
import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.format.Times;
import dev.gram.store.CommitReceipt;
import dev.gram.store.DocSnapshot;
import dev.gram.testing.ToolResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** gram_read, clause by clause. */
class GramReadTest extends ReadingTest {
  static final String DOC = "read/doc.gram";
  static final String BODY =
      String.join(
          "\n",
          "Before any heading.",
          "",
          "# Overview",
          "",
          "We chose [the cache](@dec-1) after [kickoff](@evt-1).",
          "",
          "[[tsk-1]]",
          "",
          "[[evt-1]]",
          "",
          "[[met-1]]",
          "",
          "[[dec-1]]",
          "",
          "[[dec-2]]",
          "",
          "[[dec-3]]",
          "",
          "[[ghost]]",
          "",
          "![diagram](assets/d.png)",
          "",
          "[[ast-1]]",
          "",
          "## Work",
          "",
          "[[*]]{type=task,risk status=open}",
          "",
          "# Appendix",
          "",
          "Closing words.");

  CommitReceipt created;

  @BeforeAll
  void fixture() {
    JsonArray records =
        new JsonArray()
            .add(record("task", "tsk-1", "Ship feature", "x", "open", "p", "high", "due", "2026-05-01",
                "owner", "ana", "tag", "infra", "source", "src-1", "d", "Ship it.", "->depends", "tsk-2"))
            .add(record("task", "tsk-2", "Write docs", "x", "completed", "p", "low"))
            .add(record("risk", "rsk-1", "Cache stampede", "x", "open", "p", "medium"))
            .add(record("event", "evt-1", "Kickoff", "at", "2026-03-05T10:00:00Z", "->implements", "dec-1"))
            .add(record("event", "evt-2", "Pilot", "at", "2026-02-01", "->implements", "dec-1"))
            .add(record("metric", "met-1", "Latency", "value", "42", "value", "43", "unit", "ms", "observed", "2026-03-07T08:00:00Z"))
            .add(record("decision", "dec-1", "Use a cache", "x", "accepted"))
            .add(record("decision", "dec-2", "Replace the cache", "x", "proposed", "at", "2026-04-01T12:00:00Z", "->replaces", "dec-1", "->related", "tsk-1"))
            .add(record("decision", "dec-3", "Drop the cache", "x", "proposed"))
            .add(record("asset", "ast-1", "Architecture picture", "ref", "assets/pic.png"))
            .add(record("source", "src-1", "Spec", "ref", "https://example.org/spec"))
            .add(new JsonObject().put("type", "relation").put("id", "rel-1")
                .put("fields", json("{'from':['dec-3'],'rel':['replaces'],'to':['dec-2']}")));
    created = store.create(DOC, "Read fixture", new JsonObject().put("text", BODY).put("records", records));
  }

  JsonObject section(String name) {
    return ok("gram_read", new JsonObject().put("path", DOC).put("section", name));
  }

  @Test
  void withoutSectionTheOutlineListsHeadingsAsLevelHeadingNodeIdChars() {
    JsonObject a = ok("gram_read", "{'path':'" + DOC + "'}");
    assertThat(a.getJsonObject("doc")).isEqualTo(json("{'path':'" + DOC + "','rev':0,'hash':'" + created.hash() + "'}"));
    JsonArray outline = a.getJsonArray("outline");
    assertThat(outline).hasSize(4);
    // The text before the first heading is a section of its own: level 0, no heading.
    assertThat(outline.getJsonArray(0).getInteger(0)).isZero();
    assertThat(outline.getJsonArray(0).getString(1)).isEmpty();
    assertThat(outline.getJsonArray(1).getList().subList(0, 2)).containsExactly(1, "Overview");
    assertThat(outline.getJsonArray(2).getList().subList(0, 2)).containsExactly(2, "Work");
    assertThat(outline.getJsonArray(3).getList().subList(0, 2)).containsExactly(1, "Appendix");
    for (Object o : outline) {
      JsonArray row = (JsonArray) o;
      assertThat(row).hasSize(4);
      assertThat(row.getString(2)).matches("[a-z]_[0-9a-f]{10}(-\\d+)?");
      // chars is the length of what reading that section returns; read it by its node id.
      JsonObject read = section(row.getString(2));
      assertThat(read.getString("md")).hasSize(row.getInteger(3));
    }
  }

  @Test
  void withSectionTheAnswerIsDocSectionLevelMd() {
    JsonObject a = section("Appendix");
    assertThat(a.fieldNames()).containsExactlyInAnyOrder("doc", "section", "level", "md");
    assertThat(a.getString("section")).isEqualTo("Appendix");
    assertThat(a.getInteger("level")).isEqualTo(1);
    assertThat(a.getString("md")).isEqualTo("# Appendix\n\nClosing words.");
    // A heading's text matches ignoring case, and its node id matches too.
    assertThat(section("appendix").getString("md")).isEqualTo(a.getString("md"));
  }

  @Test
  void aSectionIncludesItsSubsections() {
    String md = section("Overview").getString("md");
    assertThat(md).startsWith("# Overview\n\n").contains("## Work").doesNotContain("# Appendix");
    assertThat(section("Work").getString("md")).startsWith("## Work");
  }

  @Test
  void recordLinesCarryIdRawTypeStatusPriorityAndDueWithDescriptionOnTheNextLine() {
    String md = section("Overview").getString("md");
    assertThat(md).contains("\n\n**Ship feature** · task `tsk-1` · open · high · due 2026-05-01\nShip it.\n\n");
  }

  @Test
  void recordLinesLeaveOwnerTagSourceRefAndOtherLinksToGramContext() {
    String md = section("Overview").getString("md");
    String line = md.lines().filter(l -> l.contains("`tsk-1`")).findFirst().orElseThrow();
    assertThat(line).doesNotContain("ana").doesNotContain("infra").doesNotContain("src-1").doesNotContain("tsk-2");
    String asset = md.lines().filter(l -> l.contains("`ast-1`")).findFirst().orElseThrow();
    assertThat(asset).doesNotContain("https://");
    String dec2 = md.lines().filter(l -> l.contains("`dec-2`")).findFirst().orElseThrow();
    assertThat(dec2).doesNotContain("related");
  }

  @Test
  void atAndObservedDaysAreShortenedToTenCharacters() {
    String md = section("Overview").getString("md");
    assertThat(md).contains("**Kickoff** · event `evt-1` · at 2026-03-05\n\n");
    assertThat(md).doesNotContain("2026-03-05T10");
  }

  @Test
  void metricsShowTheFirstValueWithUnitAndObserved() {
    String md = section("Overview").getString("md");
    assertThat(md).contains("**Latency** · metric `met-1` · 42 ms · observed 2026-03-07\n\n");
    assertThat(md).doesNotContain("43");
  }

  @Test
  void aDecisionWithoutAtShowsItsEarliestImplementingEventsDate() {
    String md = section("Overview").getString("md");
    // evt-2 (2026-02-01) is earlier than evt-1 (2026-03-05); both implement dec-1.
    assertThat(md).contains("**Use a cache** · decision `dec-1` · accepted · implemented 2026-02-01\n\n");
  }

  @Test
  void replacesLinksAndReplacesRelEdgesAreShown() {
    String md = section("Overview").getString("md");
    assertThat(md).contains("**Replace the cache** · decision `dec-2` · proposed · at 2026-04-01 · replaces `dec-1`\n\n");
    assertThat(md).contains("**Drop the cache** · decision `dec-3` · proposed · replaces `dec-2`\n\n");
  }

  @Test
  void aPlacementOfNothingIsMarkedUnresolved() {
    assertThat(section("Overview").getString("md")).contains("\n\n`ghost` · unresolved\n\n");
  }

  @Test
  void imagesUseMarkdownImageReferences() {
    String md = section("Overview").getString("md");
    assertThat(md).contains("\n\n![diagram](assets/d.png)\n\n");
    assertThat(md).contains("\n\n![Architecture picture](assets/pic.png) · asset `ast-1`");
  }

  @Test
  void collectionsUseRawTypeHeadingsAndIdBearingBullets() {
    String md = section("Work").getString("md");
    assertThat(md)
        .isEqualTo(
            "## Work\n\n### task\n- **Ship feature** · `tsk-1` · open · high · due 2026-05-01"
                + "\n\n### risk\n- **Cache stampede** · `rsk-1` · open · medium");
  }

  @Test
  void mentionsStayAsWrittenAndNoRecordsIndexIsReturned() {
    JsonObject a = section("Overview");
    assertThat(a.getString("md")).contains("We chose [the cache](@dec-1) after [kickoff](@evt-1).");
    assertThat(a.containsKey("records")).isFalse();
  }

  @Test
  void anUnknownSectionIsAnArgumentError() {
    ToolResult r = call("gram_read", "{'path':'" + DOC + "','section':'Nowhere'}");
    assertError(r, "E_ARGUMENT", null);
    assertThat(r.message()).contains("Nowhere");
  }

  // ---------------------------------------------------------------- long sections and cursors

  static String longBody(String heading, int paragraphs) {
    StringBuilder sb = new StringBuilder("# " + heading);
    for (int i = 0; i < paragraphs; i++) {
      sb.append("\n\nParagraph ").append(i).append(": ").append("lorem ipsum dolor sit amet ".repeat(8).strip());
    }
    sb.append("\n\n# After\n\nThe end.");
    return sb.toString();
  }

  @Test
  void aLongSectionContinuesWithCursorEqualToMoreUntilTheWholeSectionIsRead() {
    String path = "read/long.gram";
    store.create(path, "Long", longBody("Long", 400));
    String expected = longBody("Long", 400);
    expected = expected.substring(0, expected.indexOf("\n\n# After"));
    StringBuilder read = new StringBuilder();
    JsonObject page = ok("gram_read", "{'path':'" + path + "','section':'Long'}");
    int pages = 1;
    read.append(page.getString("md"));
    while (page.containsKey("more")) {
      // Pages are cut after a blank line: each page ends with a complete paragraph.
      assertThat(page.getString("md")).endsWith("amet\n\n");
      page = ok("gram_read", new JsonObject().put("path", path).put("cursor", page.getString("more")));
      assertThat(page.getString("section")).isEqualTo("Long");
      assertThat(page.getInteger("level")).isEqualTo(1);
      assertThat(page.containsKey("at")).isFalse();
      read.append(page.getString("md"));
      pages++;
    }
    assertThat(pages).isGreaterThan(3);
    assertThat(read.toString()).isEqualTo(expected);
  }

  String firstCursor(String path, String section) {
    JsonObject page = ok("gram_read", new JsonObject().put("path", path).put("section", section));
    assertThat(page.getString("more")).isNotNull();
    return page.getString("more");
  }

  @Test
  void aMalformedCursorIsECursorInvalidSectionCursor() {
    String path = "read/cursor-malformed.gram";
    store.create(path, "Long", longBody("Long", 300));
    String cursor = firstCursor(path, "Long");
    assertError(call("gram_read", new JsonObject().put("path", path).put("cursor", malformed(cursor))), "E_CURSOR", "Invalid section cursor");
    assertError(call("gram_read", new JsonObject().put("path", path).put("cursor", "not a cursor")), "E_CURSOR", "Invalid section cursor");
    // A cursor of another tool is not a section cursor either.
    String listCursor = ok("gram_list", "{'limit':1}").getString("more");
    assertError(call("gram_read", new JsonObject().put("path", path).put("cursor", listCursor)), "E_CURSOR", "Invalid section cursor");
  }

  @Test
  void aCursorOfAnotherDocumentIsStaleCursor() {
    store.create("read/cursor-a.gram", "Long", longBody("Long", 300));
    store.create("read/cursor-b.gram", "Long", longBody("Long", 300));
    String cursor = firstCursor("read/cursor-a.gram", "Long");
    assertError(
        call("gram_read", new JsonObject().put("path", "read/cursor-b.gram").put("cursor", cursor)),
        "STALE_CURSOR", "The cursor belongs to another document, revision or section");
  }

  @Test
  void aCursorOfAnotherSectionIsStaleCursor() {
    String path = "read/cursor-section.gram";
    store.create(path, "Long", longBody("Long", 300));
    String cursor = firstCursor(path, "Long");
    assertError(
        call("gram_read", new JsonObject().put("path", path).put("section", "After").put("cursor", cursor)),
        "STALE_CURSOR", "The cursor belongs to another document, revision or section");
  }

  @Test
  void aCursorOfAnotherRevisionIsStaleCursor() {
    String path = "read/cursor-revision.gram";
    store.create(path, "Long", longBody("Long", 300));
    store.patch(path, ops(set("doc", "d", "changed")));
    String cursor = firstCursor(path, "Long");
    assertError(
        call("gram_read", new JsonObject().put("path", path).put("revision", 0).put("cursor", cursor)),
        "STALE_CURSOR", "The cursor belongs to another document, revision or section");
  }

  @Test
  void aCursorIntoADocumentReplacedByAnotherHistoryIsStaleCursor() {
    String path = "read/cursor-replaced.gram";
    store.create(path, "Long", longBody("Long", 300));
    String cursor = firstCursor(path, "Long");
    store.deleteFile(path);
    store.create(path, "Long again", longBody("Long", 300) + "\n\nDifferent now.");
    assertError(
        call("gram_read", new JsonObject().put("path", path).put("cursor", cursor)),
        "STALE_CURSOR", "The cursor belongs to another document, revision or section");
  }

  @Test
  void aCursorKeepsReadingItsRevisionAfterNewCommitsAndSaysSoWithAt() {
    String path = "read/cursor-pinned.gram";
    CommitReceipt c = store.create(path, "Long", longBody("Long", 300));
    String cursor = firstCursor(path, "Long");
    store.patch(path, ops(new JsonObject().put("op", "insert").put("md", "Inserted later.").put("section", "Long")));
    JsonObject next = ok("gram_read", new JsonObject().put("path", path).put("cursor", cursor));
    assertThat(next.getJsonObject("at").getInteger("rev")).isZero();
    assertThat(next.getJsonObject("doc").getInteger("rev")).isEqualTo(1);
    assertThat(next.getString("md")).doesNotContain("Inserted later.");
    assertThat(c.rev()).isZero();
  }

  // ---------------------------------------------------------------- historical reads

  @Test
  void historicalReadsByRevisionRecordedAtAndEffectiveAtCarryAt() {
    String path = "read/history.gram";
    store.create(path, "History", "# Notes\n\nFirst text.", "test-agent", "2026-01-10T00:00:00Z", dev.gram.edit.Creation.newDocumentId());
    DocSnapshot s0 = store.read(path);
    store.patch(path, ops(new JsonObject().put("op", "insert").put("md", "Second text.").put("section", "Notes")),
        "test-agent", "2026-02-10T00:00:00Z", null);
    DocSnapshot s1 = store.read(path);

    JsonObject now = ok("gram_read", "{'path':'" + path + "','section':'Notes'}");
    assertThat(now.containsKey("at")).isFalse();
    assertThat(now.getString("md")).contains("Second text.");

    JsonObject byRev = ok("gram_read", "{'path':'" + path + "','section':'Notes','revision':0}");
    assertThat(byRev.getString("md")).isEqualTo("# Notes\n\nFirst text.");
    assertThat(byRev.getJsonObject("at"))
        .isEqualTo(new JsonObject().put("at", Times.format(s0.revisions().get(0).recordedAt())).put("eff", "2026-01-10T00:00:00Z").put("rev", 0));
    assertThat(byRev.getJsonObject("doc").getInteger("rev")).isEqualTo(1);

    String t0 = Times.format(s0.revisions().get(0).recordedAt());
    JsonObject byRecorded = ok("gram_read", new JsonObject().put("path", path).put("section", "Notes").put("recorded_at", t0));
    assertThat(byRecorded.getJsonObject("at").getInteger("rev")).isZero();
    String t1 = Times.format(s1.revisions().get(1).recordedAt());
    assertThat(ok("gram_read", new JsonObject().put("path", path).put("section", "Notes").put("recorded_at", t1))
        .getJsonObject("at").getInteger("rev")).isEqualTo(1);

    JsonObject byEffective = ok("gram_read", "{'path':'" + path + "','section':'Notes','effective_at':'2026-01-31'}");
    assertThat(byEffective.getJsonObject("at").getInteger("rev")).isZero();
    assertThat(byEffective.getString("md")).doesNotContain("Second text.");
    JsonObject outlineThen = ok("gram_read", "{'path':'" + path + "','revision':0}");
    assertThat(outlineThen.getJsonObject("at").getInteger("rev")).isZero();
  }

  @Test
  void aTimeBeforeTheFirstRevisionIsETimeNotRecorded() {
    String path = "read/early.gram";
    store.create(path, "Early", "# Notes\n\nText.", "test-agent", "2026-01-10T00:00:00Z", dev.gram.edit.Creation.newDocumentId());
    ToolResult r = call("gram_read", "{'path':'" + path + "','section':'Notes','recorded_at':'2001-01-01T00:00:00Z'}");
    assertError(r, "E_TIME_NOT_RECORDED", null);
    assertThat(r.message()).contains(path).contains("recorded_at 2001-01-01T00:00:00Z");
    assertError(call("gram_read", "{'path':'" + path + "','effective_at':'2026-01-09'}"), "E_TIME_NOT_RECORDED", null);
  }

  @Test
  void pathsOutsideTheVaultAreEPathWithTheContractsMessages() {
    assertError(call("gram_read", "{'path':'/etc/passwd.gram'}"), "E_PATH", "Absolute paths are outside the approved folder");
    assertError(call("gram_read", "{'path':'../x.gram'}"), "E_PATH", "Path is outside the approved folders");
    assertError(call("gram_read", "{'path':'.hidden/x.gram'}"), "E_PATH", "Path is outside an approved folder or hidden");
    assertError(call("gram_read", "{'path':'@mounts/none/x.gram'}"), "E_PATH", "Path does not start with a mounted collection");
  }

  @Test
  void unknownArgumentsAreRejected() {
    assertError(call("gram_read", "{'path':'" + DOC + "','sections':'x'}"), "E_ARGUMENT", "Unknown argument sections");
  }

  @Test
  void everyPageFitsTheBudget() {
    String path = "read/wide.gram";
    // One paragraph far longer than a page, with multi-byte characters and escapes.
    String huge = "# Wide\n\n" + "ünïcödé \"quoted\" \\ tab\t ✓ 😀 ".repeat(3000);
    store.create(path, "Wide", huge);
    StringBuilder read = new StringBuilder();
    JsonObject page = ok("gram_read", "{'path':'" + path + "','section':'Wide'}");
    read.append(page.getString("md"));
    while (page.containsKey("more")) {
      page = ok("gram_read", new JsonObject().put("path", path).put("cursor", page.getString("more")));
      read.append(page.getString("md"));
    }
    assertThat(read.toString()).isEqualTo(huge);
  }
}
