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
    return w;
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
    assertThat(driver.findElement(By.cssSelector("#docs h2")).getText()).contains("(62)");
    assertThat(driver.findElements(By.cssSelector("table.docs tbody tr"))).hasSize(BrowsePage.PAGE_SIZE);
    assertThat(driver.findElement(By.cssSelector(".pager")).getText()).contains("Page 1 of 2");
    assertThat(driver.findElements(By.cssSelector("#activity li.change"))).isNotEmpty();
    Browser.screenshot(driver, SHOTS.resolve("vault.png"));
    noSeriousViolations("vault");

    driver.findElement(By.linkText("Next page")).click();
    wait(5).until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector(".pager"), "Page 2 of 2"));
    assertThat(driver.findElements(By.cssSelector("table.docs tbody tr"))).hasSize(12);

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
    details.findElement(By.tagName("summary")).click();
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
}
