package dev.gram.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gram.server.GramServer;
import dev.gram.server.ServerConfig;
import dev.gram.testing.Browser;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * With {@code --token}, the web view asks for the credential: nothing of the vault without it,
 * a log-in form that never puts the token in an address, a session cookie scripts cannot read and
 * other sites cannot send, the same Host and Origin rules as {@code /mcp}, and a person's edits
 * recorded under the name they logged in with.
 */
class WebUiAccessTest {
  static final String TOKEN = "ui-test-token-5f1c9a";
  @TempDir static Path dir;
  static ChromeDriver driver;
  static GramServer server;
  static String base;
  static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  @BeforeAll
  static void start() throws Exception {
    driver = Browser.start(dir.resolve("profile"));
    ServerConfig config = ServerConfig.parse(new String[] {
        "--vault", dir.resolve("vault").toString(), "--index", dir.resolve("index").toString(),
        "--no-stdio", "--port", "0", "--no-semantic", "--token", TOKEN}, Map.of());
    server = GramServer.start(config, InputStream.nullInputStream(), new ByteArrayOutputStream())
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    server.services().vault().scanned().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    base = "http://127.0.0.1:" + server.httpPort();
  }

  @AfterAll
  static void stop() throws Exception {
    if (driver != null) {
      driver.quit();
    }
    if (server != null) {
      server.stop().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return HTTP.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpRequest.Builder get(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).GET();
  }

  @Test
  void withoutACredentialNothingOfTheVaultIsShown() throws Exception {
    HttpResponse<String> home = send(get("/ui/"));
    assertThat(home.statusCode()).isEqualTo(303);
    assertThat(home.headers().firstValue("Location")).hasValue("/ui/login");
    assertThat(send(get("/")).headers().firstValue("Location")).hasValue("/ui/");
    for (String path : new String[] {"/ui/doc/getting-started/welcome.gram?part=doc", "/ui/events",
        "/ui/?part=docs", "/ui/search?q=welcome&part=x"}) {
      HttpResponse<String> r = send(get(path));
      assertThat(r.statusCode()).as(path).isEqualTo(401);
      assertThat(r.body()).doesNotContain("welcome.gram");
    }
    HttpResponse<String> edit = send(HttpRequest.newBuilder(URI.create(base + "/ui/edit/getting-started/welcome.gram"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("rev=0&hash=x&op=note&text=sneaky")));
    assertThat(edit.statusCode()).isEqualTo(401);
    assertThat(send(get("/ui/login")).statusCode()).isEqualTo(200);
    assertThat(send(HttpRequest.newBuilder(URI.create(base + "/mcp")).POST(HttpRequest.BodyPublishers.ofString("{}")))
        .statusCode()).as("/mcp still wants its bearer token").isEqualTo(401);

    // A script may use the bearer token itself, as on /mcp.
    assertThat(send(get("/ui/").header("Authorization", "Bearer " + TOKEN)).statusCode()).isEqualTo(200);
    // The rules of /mcp against other sites hold here too.
    assertThat(send(get("/ui/login").header("Origin", "https://evil.example")).statusCode()).isEqualTo(403);
    HttpResponse<String> foreignPost = send(HttpRequest.newBuilder(URI.create(base + "/ui/login"))
        .header("Origin", "https://evil.example").header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString("name=x&token=" + TOKEN)));
    assertThat(foreignPost.statusCode()).isEqualTo(403);
    assertThat(foreignPost.headers().allValues("Set-Cookie")).isEmpty();
  }

  @Test
  void aPersonLogsInEditsUnderTheirNameAndLogsOut() {
    driver.get(base + "/ui/");
    new WebDriverWait(driver, Duration.ofSeconds(5)).until(ExpectedConditions.urlContains("/ui/login"));
    Browser.screenshot(driver, WebUiBrowserTest.SHOTS.resolve("login.png"));
    assertThat(Browser.axe(driver, "serious", "critical")).as("axe on the login page").isEmpty();

    driver.findElement(By.id("name")).sendKeys("ana");
    driver.findElement(By.id("token")).sendKeys("not-the-token");
    driver.findElement(By.cssSelector("form.login button")).click();
    try {
      assertThat(new WebDriverWait(driver, Duration.ofSeconds(5))
          .until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("p.error"))).getText())
          .contains("do not let you in");
    } catch (org.openqa.selenium.TimeoutException e) {
      throw new AssertionError(driver.getCurrentUrl() + " " + driver.getPageSource(), e);
    }
    assertThat(driver.manage().getCookieNamed(WebAccess.COOKIE)).isNull();

    driver.findElement(By.id("name")).sendKeys("ana");
    driver.findElement(By.id("token")).sendKeys(TOKEN);
    driver.findElement(By.cssSelector("form.login button")).click();
    new WebDriverWait(driver, Duration.ofSeconds(5)).until(ExpectedConditions.urlToBe(base + "/ui/"));
    assertThat(driver.getCurrentUrl()).doesNotContain(TOKEN);
    Cookie session = driver.manage().getCookieNamed(WebAccess.COOKIE);
    assertThat(session.isHttpOnly()).isTrue();
    assertThat(session.getSameSite()).isEqualTo("Strict");
    assertThat(session.getValue()).doesNotContain(TOKEN);
    assertThat(driver.findElement(By.cssSelector(".who .name")).getText()).isEqualTo("person:ana");

    driver.findElement(By.linkText("Welcome")).click();
    new WebDriverWait(driver, Duration.ofSeconds(5)).until(d -> !d.findElements(By.cssSelector("button.check")).isEmpty());
    driver.findElement(By.cssSelector("button.check")).click();
    new WebDriverWait(driver, Duration.ofSeconds(5)).until(ExpectedConditions.textToBePresentInElementLocated(By.id("live"), "Saved"));
    assertThat(server.services().vault().peek("getting-started/welcome.gram").head().by()).isEqualTo("person:ana");

    driver.findElement(By.cssSelector(".who button")).click();
    new WebDriverWait(driver, Duration.ofSeconds(5)).until(ExpectedConditions.urlContains("/ui/login"));
    driver.get(base + "/ui/doc/getting-started/welcome.gram");
    assertThat(driver.getCurrentUrl()).endsWith("/ui/login");
  }
}
