package dev.gram.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.testing.Browser;
import dev.gram.testing.GramTestServer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web view in a real browser (headless Chromium) against a real server on a real vault, with
 * an agent writing over MCP: browse, a document rendered as the profile says, history and diff,
 * time travel, a live update, search, a person's edit and a conflict, and axe-core on each page
 * type. One server and one browser for the class.
 */
class WebUiBrowserTest {
  @TempDir static Path dir;
  static ChromeDriver driver;
  static GramTestServer server;
  static String base;
  /** Screenshots of each page type, for docs/ui.md. */
  static final Path SHOTS = Path.of("target", "ui-screenshots");

  @BeforeAll
  static void start() {
    driver = Browser.start(dir.resolve("profile"));
    server = GramTestServer.start(dir.resolve("vault"));
    base = "http://127.0.0.1:" + server.httpPort();
    UiFixture.create(server);
    for (int i = 0; i < 60; i++) {
      UiFixture.ok(server.call("gram_create", new JsonObject().put("path", "bulk/doc-" + (100 + i) + ".gram")
          .putNull("base_revision").put("title", "Bulk note " + (100 + i)).put("content", "Bulk body " + i)));
    }
  }

  @AfterAll
  static void stop() {
    if (driver != null) {
      driver.quit();
    }
    if (server != null) {
      server.close();
    }
  }

  static void open(String path) {
    driver.get(base + "/ui" + path);
    try {
      wait(5).until(d -> "1".equals(d.findElement(By.tagName("html")).getAttribute("data-ready")));
    } catch (org.openqa.selenium.TimeoutException e) {
      String page = driver.getPageSource();
      throw new AssertionError("the page's script did not run on " + path + ": "
          + page.substring(0, Math.min(page.length(), 3000)), e);
    }
  }

  static WebDriverWait wait(int seconds) {
    WebDriverWait w = new WebDriverWait(driver, Duration.ofSeconds(seconds));
    w.pollingEvery(Duration.ofMillis(20));
    // A live page replaces what it shows; an element read as it goes is looked up again.
    w.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
    return w;
  }

  /**
   * Clicks once the element can take the click: a record far down a long page is laid out only
   * when it scrolls into view ({@code content-visibility}), a moment after the scroll.
   */
  static void click(WebElement e) {
    wait(5).ignoring(org.openqa.selenium.ElementClickInterceptedException.class).until(d -> {
      ((org.openqa.selenium.JavascriptExecutor) d).executeScript("arguments[0].scrollIntoView({block: 'center'})", e);
      e.click();
      return true;
    });
  }

  static void noSeriousViolations(String page) {
    assertThat(Browser.axe(driver, "serious", "critical")).as("axe on the %s page", page).isEmpty();
  }

  static List<String> texts(String css) {
    List<String> out = new ArrayList<>();
    for (WebElement e : driver.findElements(By.cssSelector(css))) {
      out.add(e.getText());
    }
    return out;
  }

  @Test
  void browseListsFoldersAndDocumentsAPageAtATimeSortedAndFiltered() {
    open("/");
    assertThat(driver.getCurrentUrl()).endsWith("/ui/");
    assertThat(texts(".side a")).contains("atlas", "bulk");
    int documents = server.services().vault().documents().size();
    assertThat(documents).isGreaterThan(BrowsePage.PAGE_SIZE);
    assertThat(driver.findElement(By.cssSelector("#docs h2")).getText()).contains("(" + documents + ")");
    assertThat(driver.findElements(By.cssSelector("table.docs tbody tr"))).hasSize(BrowsePage.PAGE_SIZE);
    int pages = (documents + BrowsePage.PAGE_SIZE - 1) / BrowsePage.PAGE_SIZE;
    assertThat(driver.findElement(By.cssSelector(".pager")).getText()).contains("Page 1 of " + pages);
    assertThat(driver.findElements(By.cssSelector("#activity li.change"))).isNotEmpty();
    Browser.screenshot(driver, SHOTS.resolve("vault.png"));
    noSeriousViolations("vault");

    driver.findElement(By.linkText("Next page")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".pager"), "Page 2 of " + pages));
    assertThat(driver.findElements(By.cssSelector("table.docs tbody tr")))
        .hasSize(Math.min(BrowsePage.PAGE_SIZE, documents - BrowsePage.PAGE_SIZE));

    open("/");
    driver.findElement(By.id("filter")).sendKeys("plan");
    driver.findElement(By.cssSelector("form.filter button")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#docs h2"), "(1)"));
    assertThat(texts("table.docs tbody td.path")).containsExactly(UiFixture.PLAN);

    driver.findElement(By.linkText("atlas")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "atlas"));
    driver.findElement(By.linkText("Title")).click();
    wait(5).until(d -> d.getCurrentUrl().contains("sort=title"));
    assertThat(texts("table.docs tbody td a")).containsExactly("Atlas launch plan", "Ops notes");
  }

  @Test
  void aDocumentIsShownAsTheProfileSays() {
    open("/doc/" + UiFixture.PLAN);
    Browser.screenshot(driver, SHOTS.resolve("document.png"));
    noSeriousViolations("document");
    WebElement body = driver.findElement(By.cssSelector("#doc .body"));
    // Every body node type, each as its HTML.
    assertThat(body.findElement(By.cssSelector("h2[data-type=heading]")).getText()).isEqualTo("Atlas launch");
    WebElement para = body.findElements(By.cssSelector("p[data-type=paragraph]")).get(0);
    assertThat(para.findElement(By.tagName("strong")).getText()).isEqualTo("strong");
    assertThat(para.findElement(By.tagName("em")).getText()).isEqualTo("em");
    assertThat(para.findElement(By.tagName("code")).getText()).isEqualTo("code");
    assertThat(para.findElement(By.tagName("del")).getText()).isEqualTo("old");
    List<WebElement> lists = body.findElements(By.cssSelector("[data-type=list]"));
    assertThat(lists).hasSize(2);
    assertThat(lists.get(0).findElements(By.cssSelector("ul > li > ul > li"))).hasSize(2);
    assertThat(lists.get(1).findElements(By.cssSelector("ol > li"))).hasSize(2);
    WebElement table = body.findElement(By.cssSelector("table[data-type=table]"));
    assertThat(table.findElements(By.cssSelector("thead th"))).extracting(WebElement::getText).containsExactly("Step", "Owner");
    assertThat(table.findElements(By.cssSelector("tbody tr")).get(1).getText()).contains("ben | ops");
    assertThat(body.findElement(By.cssSelector("blockquote[data-type=quote]")).getText()).contains("cut over once");
    WebElement callout = body.findElement(By.cssSelector("aside[data-type=callout]"));
    assertThat(callout.getAttribute("class")).contains("callout-warning");
    assertThat(callout.getText()).contains("Mind the window").contains("maintenance window");
    assertThat(body.findElement(By.cssSelector("[data-type=code] code.language-sql")).getText()).contains("SELECT count(*)");
    assertThat(body.findElement(By.cssSelector("[data-type=math] code")).getText()).isEqualTo("E = mc^2");
    assertThat(body.findElements(By.cssSelector("hr[data-type=divider]"))).hasSize(1);
    WebElement image = body.findElement(By.cssSelector("figure[data-type=image]"));
    assertThat(image.getText()).contains("Architecture sketch");
    assertThat(image.findElements(By.tagName("img"))).as("a picture on another host is linked, never fetched").isEmpty();

    // Every item view, by the profile's rules.
    for (Map.Entry<String, String> e : UiFixture.ITEM_VIEWS.entrySet()) {
      WebElement item = body.findElement(By.cssSelector("[data-type=item][data-" + (e.getKey().equals("gone-404") ? "ref" : "id")
          + "='" + e.getKey() + "']"));
      assertThat(item.getAttribute("data-shown")).as("%s", e.getKey()).isEqualTo(e.getValue());
    }
    WebElement task = body.findElement(By.id("r-tsk-freeze"));
    WebElement check = task.findElement(By.cssSelector("button.check[role=checkbox]"));
    assertThat(check.getAttribute("aria-checked")).isEqualTo("false");
    assertThat(task.findElement(By.cssSelector(".chip.due")).getText()).contains("2026-03-10");
    assertThat(task.findElement(By.cssSelector(".chip.status")).getText()).contains("open");
    assertThat(task.findElement(By.cssSelector(".chip.prio")).getText()).contains("high");
    WebElement metric = body.findElement(By.id("r-met-latency"));
    assertThat(metric.findElement(By.cssSelector(".value")).getText()).isEqualTo("42");
    assertThat(metric.findElement(By.cssSelector(".unit")).getText()).isEqualTo("ms");
    assertThat(body.findElement(By.cssSelector("#r-ast-diagram figcaption")).getText()).isEqualTo("Architecture diagram");
    WebElement line = body.findElement(By.id("r-dec-rollout"));
    assertThat(line.findElement(By.cssSelector("strong.title")).getText()).isEqualTo("Roll out region by region");
    assertThat(line.findElement(By.cssSelector(".chip.status")).getText()).contains("accepted");
    assertThat(line.findElement(By.cssSelector(".desc")).getText()).isEqualTo("One region a day, smallest first.");
    assertThat(body.findElement(By.cssSelector("#r-rsk-window .desc")).getText())
        .as("a description from the reason block").contains("five hours");
    assertThat(body.findElement(By.cssSelector("[data-shown=unresolved]")).getText()).contains("gone-404");

    // Every collection rule.
    List<WebElement> collections = body.findElements(By.cssSelector("[data-type=collection]"));
    assertThat(collections).extracting(c -> c.getAttribute("data-shown")).containsExactly(UiFixture.COLLECTION_VIEWS);
    assertThat(collections.get(0).findElements(By.cssSelector("li[data-id]"))).hasSize(2);
    assertThat(collections.get(1).findElements(By.cssSelector("tbody tr[data-id]"))).hasSize(1);
    assertThat(collections.get(4).getText()).contains("No records match");
    assertThat(collections.get(5).findElements(By.cssSelector(".column"))).extracting(c -> c.getAttribute("aria-label"))
        .containsExactly("open", "completed");

    // The records the body does not place still have their place; mentions lead to records.
    assertThat(driver.findElements(By.cssSelector(".unplaced [data-shown]"))).extracting(e -> e.getAttribute("data-id"))
        .containsExactly("tsk-backup", "evd-rehearsal");
    assertThat(para.findElement(By.cssSelector("a.mention")).getAttribute("href")).endsWith("#r-dec-rollout");
    assertThat(para.findElement(By.cssSelector(".mention.unresolved")).getText()).contains("a lost one");

    // A record's fields, links and blocks on demand.
    WebElement details = driver.findElement(By.cssSelector("#r-evd-rehearsal details.more"));
    click(details.findElement(By.tagName("summary")));
    wait(5).until(d -> !details.findElements(By.cssSelector(".record-detail")).isEmpty());
    assertThat(details.findElement(By.cssSelector(".record-detail")).getText())
        .contains("rehearsal").contains("supports").contains("Roll out region by region");

    // A link between documents is followed.
    para.findElement(By.linkText("ops notes")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.id("doc-title"), "Ops notes"));
    driver.findElement(By.linkText("launch plan")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.id("doc-title"), "Atlas launch plan"));
  }

  @Test
  void theRecordPageShowsFieldsAndPassesAxe() {
    open("/rec/" + UiFixture.PLAN + "?id=rsk-window");
    assertThat(driver.findElement(By.tagName("h1")).getText()).isEqualTo("The window is too short");
    assertThat(driver.findElement(By.cssSelector(".record-detail")).getText()).contains("reason").contains("five hours");
    noSeriousViolations("record");
  }

  @Test
  void historyListsRevisionsAndTheDiffShowsBeforeAndAfter() {
    String path = "history/log.gram";
    UiFixture.ok(server.call("gram_create", new JsonObject().put("path", path).putNull("base_revision")
        .put("title", "Change log").put("content", new JsonObject().put("text", "# Log\n\n[[tsk-a]]\n")
            .put("records", new io.vertx.core.json.JsonArray()
                .add(UiFixture.record("task", "tsk-a", "t", "Write the log", "x", "open"))
                .add(UiFixture.record("note", "kn-gone", "t", "Scratch")
                    .put("type", "knowledge"))))));
    UiFixture.patch(server, path, "hist-1", UiFixture.set("tsk-a", "x", "completed"),
        new JsonObject().put("op", "del").put("entity", "kn-gone"),
        new JsonObject().put("op", "add").put("record", UiFixture.record("decision", "dec-new", "t", "Keep a log")));
    open("/history/" + path);
    assertThat(driver.findElements(By.cssSelector("table.timeline tbody tr"))).extracting(r -> r.getAttribute("data-rev"))
        .containsExactly("1", "0");
    WebElement newest = driver.findElement(By.cssSelector("table.timeline tbody tr[data-rev='1']"));
    assertThat(newest.getText()).contains("test-agent").contains("hist-1").contains("+1 ~1 -1");
    Browser.screenshot(driver, SHOTS.resolve("history.png"));
    noSeriousViolations("history");

    newest.findElement(By.partialLinkText("with 0")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "from revision 0 to 1"));
    assertThat(driver.findElement(By.cssSelector(".diff-added li[data-id='dec-new']")).getText()).contains("Keep a log");
    assertThat(driver.findElement(By.cssSelector(".diff-removed li[data-id='kn-gone']")).getText()).contains("Scratch");
    WebElement status = driver.findElement(By.cssSelector(".diff-entity[data-id='tsk-a'] tr[data-key='x']"));
    assertThat(status.findElement(By.cssSelector("td.before")).getText()).isEqualTo("open");
    assertThat(status.findElement(By.cssSelector("td.after")).getText()).isEqualTo("completed");
    Browser.screenshot(driver, SHOTS.resolve("diff.png"));
    noSeriousViolations("diff");
  }

  @Test
  void timeTravelShowsTheDocumentAtARevisionARecordedTimeAndAnEffectiveTime() {
    String path = "travel/facts.gram";
    UiFixture.ok(server.call("gram_create", new JsonObject().put("path", path).putNull("base_revision")
        .put("title", "Facts").put("effective_at", "2026-01-01")
        .put("content", new JsonObject().put("text", "[[met-users]]\n").put("records", new io.vertx.core.json.JsonArray()
            .add(UiFixture.record("metric", "met-users", "t", "Users", "value", "100", "unit", "users"))))));
    String recordedBetween = java.time.Instant.now().toString();
    JsonObject doc = UiFixture.head(server, path);
    UiFixture.ok(server.call("gram_patch", new JsonObject().put("path", path).put("base_revision", doc.getInteger("rev"))
        .put("expected_hash", doc.getString("hash")).put("request_id", "travel-1").put("effective_at", "2026-06-01")
        .put("operations", new io.vertx.core.json.JsonArray().add(UiFixture.set("met-users", "value", "250")))));

    open("/doc/" + path);
    assertThat(driver.findElement(By.cssSelector("#r-met-users .value")).getText()).isEqualTo("250");
    driver.findElement(By.id("tt-rev")).sendKeys("0");
    driver.findElement(By.cssSelector(".travel button")).click();
    wait(5).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".past")));
    assertThat(driver.findElement(By.cssSelector("#r-met-users .value")).getText()).isEqualTo("100");
    assertThat(driver.findElements(By.cssSelector("button.check, #edits, .add-note"))).as("the past is read-only").isEmpty();
    Browser.screenshot(driver, SHOTS.resolve("time-travel.png"));
    noSeriousViolations("past revision");

    open("/doc/" + path + "?recorded=" + recordedBetween);
    assertThat(driver.findElement(By.cssSelector("#r-met-users .value")).getText()).isEqualTo("100");
    open("/doc/" + path + "?effective=2026-03-01");
    assertThat(driver.findElement(By.cssSelector("#r-met-users .value")).getText()).isEqualTo("100");
    assertThat(driver.findElement(By.cssSelector(".past")).getText()).contains("As the facts stood");
    open("/doc/" + path + "?effective=2026-07-01");
    assertThat(driver.findElement(By.cssSelector("#r-met-users .value")).getText()).isEqualTo("250");
  }

  @Test
  void anAgentsWriteOverMcpAppearsOnTheOpenPageWithinASecond() {
    String path = "live/board.gram";
    UiFixture.ok(server.call("gram_create", new JsonObject().put("path", path).putNull("base_revision")
        .put("title", "Live board").put("content", new JsonObject().put("text", "[[tsk-live]]\n")
            .put("records", new io.vertx.core.json.JsonArray().add(UiFixture.record("task", "tsk-live", "t", "Before"))))));
    open("/doc/" + path);
    wait(5).until(d -> "open".equals(d.findElement(By.tagName("body")).getAttribute("data-live")));
    open("/");
    wait(5).until(d -> "open".equals(d.findElement(By.tagName("body")).getAttribute("data-live")));
    ((org.openqa.selenium.JavascriptExecutor) driver).executeScript("window.open(arguments[0], 'doc')", base + "/ui/doc/" + path);
    String vault = driver.getWindowHandle();
    driver.switchTo().window("doc");
    wait(5).until(d -> "open".equals(d.findElement(By.tagName("body")).getAttribute("data-live")));

    UiFixture.patch(server, path, "live-1", UiFixture.set("tsk-live", "t", "After the agent wrote"));
    long acknowledged = System.nanoTime();
    wait(1).until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#r-tsk-live .title"), "After the agent wrote"));
    long millis = (System.nanoTime() - acknowledged) / 1_000_000;
    assertThat(millis).as("shown %d ms after the receipt", millis).isLessThan(1000);
    assertThat(driver.findElement(By.id("live")).getText()).contains("revision 1").contains("test-agent");
    assertThat(driver.findElement(By.cssSelector(".revision")).getText()).contains("Revision 1 by test-agent");
    assertThat(driver.findElement(By.id("r-tsk-live")).getAttribute("class")).contains("changed");

    driver.close();
    driver.switchTo().window(vault);
    wait(2).until(d -> d.findElement(By.cssSelector("#activity li.change")).getAttribute("data-path").equals(path));
    assertThat(driver.findElement(By.cssSelector("#activity li.change")).getText()).contains("After the agent wrote");
  }

  @Test
  void searchFindsTheRecordAndTheHitOpensItInItsDocument() {
    open("/");
    driver.findElement(By.id("quick-q")).sendKeys("rehearsal timings");
    driver.findElement(By.cssSelector(".quick-search button")).click();
    wait(5).until(ExpectedConditions.presenceOfElementLocated(By.id("hits")));
    assertThat(driver.findElement(By.id("mode")).getAttribute("value")).isEqualTo("auto");
    WebElement hit = driver.findElement(By.cssSelector("li.hit[data-ref='" + UiFixture.PLAN + "#evd-rehearsal']"));
    Browser.screenshot(driver, SHOTS.resolve("search.png"));
    noSeriousViolations("search");

    open("/search?q=" + "schema" + "&mode=keyword&type=task");
    assertThat(texts("li.hit")).allSatisfy(t -> assertThat(t).contains("task"));
    assertThat(driver.findElement(By.cssSelector("details.filters")).getAttribute("open")).isNotNull();

    open("/search?q=rehearsal%20timings");
    driver.findElement(By.cssSelector("li.hit[data-ref='" + UiFixture.PLAN + "#evd-rehearsal'] a.title")).click();
    wait(5).until(d -> d.getCurrentUrl().endsWith("#r-evd-rehearsal"));
    assertThat(driver.findElement(By.cssSelector(":target")).getAttribute("data-id")).isEqualTo("evd-rehearsal");
    assertThat(hit).isNotNull();
  }

  @Test
  void aPersonTicksATaskAndTheHistoryNamesThem() {
    String path = "edits/tasks.gram";
    UiFixture.ok(server.call("gram_create", new JsonObject().put("path", path).putNull("base_revision")
        .put("title", "Chores").put("content", new JsonObject().put("text", "[[tsk-dishes]]\n")
            .put("records", new io.vertx.core.json.JsonArray().add(UiFixture.record("task", "tsk-dishes", "t", "Do the dishes", "x", "open"))))));
    open("/doc/" + path);
    WebElement check = driver.findElement(By.cssSelector("#r-tsk-dishes button.check"));
    click(check);
    wait(5).until(d -> "true".equals(d.findElement(By.cssSelector("#r-tsk-dishes button.check")).getAttribute("aria-checked")));
    assertThat(driver.findElement(By.id("live")).getText()).contains("Saved: revision 1");

    // The title and status, and a note, through the record's own form.
    click(driver.findElement(By.cssSelector("#r-tsk-dishes details.more summary")));
    WebElement title = wait(5).until(ExpectedConditions.visibilityOfElementLocated(By.id("t-tsk-dishes")));
    title.clear();
    title.sendKeys("Do the dishes tonight");
    driver.findElement(By.cssSelector("#r-tsk-dishes form.record-edit button")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#r-tsk-dishes .title"), "Do the dishes tonight"));
    driver.findElement(By.id("note-text")).sendKeys("Buy soap\nThe green one.");
    driver.findElement(By.cssSelector(".add-note button")).click();
    wait(5).until(d -> d.findElements(By.cssSelector("[data-record-type=knowledge]")).size() == 1);

    JsonObject range = UiFixture.ok(server.call("gram_range", new JsonObject().put("path", path)));
    io.vertx.core.json.JsonArray events = range.getJsonArray("events");
    assertThat(events).hasSize(4);
    for (int i = 1; i < 4; i++) {
      JsonObject e = events.getJsonObject(i);
      assertThat(e.getString("agent")).isEqualTo("person:" + System.getProperty("user.name"));
      assertThat(e.getString("request_id")).startsWith("ui-");
    }
    JsonObject task = UiFixture.ok(server.call("gram_get", new JsonObject().put("path", path).put("entity", "tsk-dishes")))
        .getJsonObject("entity").getJsonObject("fields");
    assertThat(task.getJsonArray("x").getString(0)).isEqualTo("completed");
    assertThat(task.getJsonArray("t").getString(0)).isEqualTo("Do the dishes tonight");
  }

  @Test
  void aConflictShowsWhatChangedAndOffersARepplyThatNeverOverwrites() {
    String path = "edits/conflict.gram";
    UiFixture.ok(server.call("gram_create", new JsonObject().put("path", path).putNull("base_revision")
        .put("title", "Contested").put("content", new JsonObject().put("text", "[[dec-db]]\n")
            .put("records", new io.vertx.core.json.JsonArray().add(UiFixture.record("decision", "dec-db", "t", "Use Postgres", "x", "proposed"))))));
    // The record's own page does not follow the vault: what the person sees there goes stale.
    open("/rec/" + path + "?id=dec-db");
    UiFixture.patch(server, path, "agent-moves-first", UiFixture.set("dec-db", "d", "Benchmarks favour it."),
        UiFixture.set("dec-db", "x", "reviewing"));
    WebElement status = driver.findElement(By.cssSelector("form.record-edit input[name=status]"));
    status.clear();
    status.sendKeys("accepted");
    driver.findElement(By.cssSelector("form.record-edit button")).click();
    WebElement conflict = wait(5).until(ExpectedConditions.visibilityOfElementLocated(By.id("conflict")));
    assertThat(conflict.getText()).contains("not saved").contains("You read revision 0; it is now at revision 1")
        .contains("test-agent").contains("Your change: Set dec-db's status to “accepted”")
        .contains("Changed: Use Postgres");
    assertThat(conflict.findElement(By.cssSelector("table.conflict-record")).getText()).contains("reviewing");
    Browser.screenshot(driver, SHOTS.resolve("conflict.png"));
    noSeriousViolations("conflict");
    JsonObject untouched = UiFixture.ok(server.call("gram_get", new JsonObject().put("path", path).put("entity", "dec-db")))
        .getJsonObject("entity").getJsonObject("fields");
    assertThat(untouched.getJsonArray("x").getString(0)).as("nothing was overwritten").isEqualTo("reviewing");

    conflict.findElement(By.cssSelector("form.reapply button")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.id("doc-title"), "Contested"));
    JsonObject after = UiFixture.ok(server.call("gram_get", new JsonObject().put("path", path).put("entity", "dec-db")))
        .getJsonObject("entity").getJsonObject("fields");
    assertThat(after.getJsonArray("x").getString(0)).isEqualTo("accepted");
    assertThat(after.getJsonArray("d").getString(0)).as("the agent's change is kept").isEqualTo("Benchmarks favour it.");
  }

  @Test
  void thePrintedDocumentIsTheDocumentAlone() {
    open("/doc/" + UiFixture.PLAN);
    driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", "print"));
    try {
      assertThat(driver.findElement(By.cssSelector("header.top")).isDisplayed()).isFalse();
      assertThat(driver.findElement(By.cssSelector(".travel")).isDisplayed()).isFalse();
      assertThat(driver.findElement(By.cssSelector("#r-tsk-freeze .title")).isDisplayed()).isTrue();
      assertThat(driver.findElement(By.cssSelector("#r-tsk-freeze button.check")).isDisplayed()).isTrue();
    } finally {
      driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", ""));
    }
  }
}
